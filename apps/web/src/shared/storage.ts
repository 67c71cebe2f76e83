/**
 * Every key the app keeps in the browser (spec §3 "Local state" and the
 * session keys), in one place so no two features pick the same name.
 */
export const LOCAL_KEYS = {
  loggedIn: 'isLogin',
  token: 'token',
  userInfo: 'userInfo',
  walletAddress: 'walletAddress',
  favourites: 'optionalData',
  recentPairs: 'recentPairs',
  locale: 'lang',
  readTips: 'readTips',
  hideAmounts: 'hideAmounts',
} as const;

export const SESSION_KEYS = {
  lastRoute: 'routeName',
  webSocketKey: 'webSocketKey',
  marketDetails: 'marketDetails',
  selectedCoin: 'selectedCoin',
  tradeType: 'tradeType',
  balancesData: 'balancesData',
  /** Spec §3: the futures screen's stored margin mode, pair, tab and direction; also its order style and leverage. */
  futuresMode: 'futuresMode',
  futuresStyle: 'futuresStyle',
  futuresLever: 'futuresLever',
  futuresPair: 'futuresPair',
  futuresTab: 'futuresTab',
  futuresDirection: 'futuresDirection',
  /** The position the TP/SL screen (/stopPl) opens on (spec §2: stored before leaving). */
  futuresPosition: 'futuresPosition',
} as const;

type LocalKey = (typeof LOCAL_KEYS)[keyof typeof LOCAL_KEYS];
type SessionKey = (typeof SESSION_KEYS)[keyof typeof SESSION_KEYS];

/** Storage can throw (private mode, quota, disabled cookies); the app then behaves as if nothing was stored. */
function safeGet(storage: () => Storage, key: string): string | null {
  try {
    return storage().getItem(key);
  } catch {
    return null;
  }
}

function safeSet(storage: () => Storage, key: string, value: string | null): void {
  try {
    if (value === null) storage().removeItem(key);
    else storage().setItem(key, value);
  } catch {
    // Nothing to do: the value lives for this page only.
  }
}

function readJson<T>(text: string | null, fallback: T): T {
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

export const local = {
  get: (key: LocalKey) => safeGet(() => localStorage, key),
  set: (key: LocalKey, value: string | null) => safeSet(() => localStorage, key, value),
  getJson: <T>(key: LocalKey, fallback: T): T =>
    readJson(
      safeGet(() => localStorage, key),
      fallback,
    ),
  setJson: (key: LocalKey, value: unknown) => safeSet(() => localStorage, key, JSON.stringify(value)),
};

export const session = {
  get: (key: SessionKey) => safeGet(() => sessionStorage, key),
  set: (key: SessionKey, value: string | null) => safeSet(() => sessionStorage, key, value),
};
