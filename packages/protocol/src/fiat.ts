/**
 * Fiat buy and sell through merchants on the wire (spec §3 "Fiat order", §4,
 * §7 Fiat; AMENDMENTS A4, A6; issue 16), shared by the server's /fiat routes
 * and the web app. Money travels as decimal strings, times as epoch ms.
 */

/** Bank transfer or WeChat Pay (spec §1). */
export type FiatPayType = 'bank' | 'wechat';

/**
 * The payee's details (spec §3 "Fiat order"): every field is text, empty
 * when the method does not use it. `wechatCode` is the url of the pay code image.
 */
export interface FiatPayee {
  payeeName: string;
  cardNumber: string;
  bank: string;
  branch: string;
  accountType: string;
  bankAddress: string;
  swift: string;
  iban: string;
  remark: string;
  wechatAccount: string;
  wechatCode: string;
}

/** Spec §4: to be paid → completed | cancelled; issue 16 adds paid and appeal between. */
export type FiatOrderState = 'to_pay' | 'paid' | 'appeal' | 'completed' | 'cancelled';

/** `buy`: the user buys the coin from a merchant; `sell`: the user sells it to one. */
export type FiatSide = 'buy' | 'sell';

/**
 * What an appeal is about (issue 16 item 5). The buyer: paid but the coin is
 * not released. The seller: no payment arrived, the wrong amount arrived, or
 * it came from an account not in the buyer's name. Either: something else.
 */
export type FiatAppealKind =
  | 'paidNotReleased'
  | 'notReceived'
  | 'wrongAmount'
  | 'thirdPartyPayment'
  | 'other';

/** One piece of evidence an appeal asks for (its text: message key `fiat.evidence.<item>`). */
export type FiatEvidence =
  | 'paymentScreenshot'
  | 'payerAccountName'
  | 'paymentTime'
  | 'transactionReference'
  | 'bankStatement'
  | 'amountReceived'
  | 'description';

/** How an ad is priced: fixed, or floating: the index price × (1 + premium %), refreshed as the index moves. */
export type FiatPriceType = 'fixed' | 'floating';

/** What one coin/fiat offers, best price first (GET /fiat/payCoinList). */
export interface FiatOffer {
  coin: string;
  fiat: string;
  side: FiatSide;
  /** The best eligible price (fiat per coin) and the widest single-order limits in fiat. */
  price: string;
  /** The best price floats with the index (an order locks the price it is made at). */
  floating: boolean;
  min: string;
  max: string;
  methods: FiatPayType[];
}

/**
 * The ad an order would be matched to now (GET /fiat/quote): read before
 * ordering; the order names `adId` and goes to that ad or fails.
 */
export interface FiatQuote {
  adId: number;
  price: string;
  /** The coin the amount buys or sells at that price. */
  number: string;
  merchant: { name: string; demo: boolean };
  payWindowMinutes: number;
  /** The ad's free-text terms (plain text, never HTML). */
  terms: string;
}

/** A coin that can be bought or sold for fiat, with the fiat currencies it trades in (GET /fiat/fiatCoin). */
export interface FiatCoin {
  coin: string;
  fiats: string[];
}

/** One transition of an order: who, when, why. */
export interface FiatOrderEvent {
  state: FiatOrderState;
  /** 'buyer', 'seller', 'system' (the clock) or 'operator:<name>'. */
  by: string;
  at: number;
  reason: string;
}

/** A fiat order as its parties read it (spec §3 "Fiat order"). */
export interface FiatOrder {
  id: number;
  side: FiatSide;
  state: FiatOrderState;
  coin: string;
  fiat: string;
  price: string;
  /** Fiat to pay, and the coin it buys. */
  amount: string;
  number: string;
  payType: FiatPayType;
  merchant: { name: string; demo: boolean };
  /** Who pays fiat to whom: the payee's details (the merchant's for a buy, the user's for a sell). */
  payee: FiatPayee;
  /** The payment screenshot's url, once the payer uploaded it (GET /fiat/payImg?id=… shows it to both parties). */
  payImg: string | null;
  /** The payer's verified name: the payee checks the fiat came from an account in this name. */
  payerName: string;
  /** The payer must pay before this instant: the ad's payment window from the order's creation (20 minutes by default, spec §4). */
  expiresAt: number;
  /** That window in minutes, as set on the ad when the order was made. */
  payWindowMinutes: number;
  /** The ad's free-text terms as they stood when the order was made (plain text, never HTML). */
  terms: string;
  createdAt: number;
  /** The user's part in it: what the user may do now. */
  role: 'buyer' | 'seller';
  /** What the order's appeal is about, once appealed (its evidence checklist: rules fiatAppealEvidence). */
  appealKind: FiatAppealKind | null;
  events: FiatOrderEvent[];
}

/** A fiat-trading ban (AMENDMENTS A6): its rule, reason, start and end. */
export interface FiatBan {
  rule: 'unpaid' | 'cancels';
  reason: string;
  startsAt: number;
  endsAt: number;
}

/** The user's standing: bans in force, the ladder and the day's count so far (GET /fiat/myBans). */
export interface FiatStanding {
  ban: FiatBan | null;
  history: FiatBan[];
  /** Minutes of each step of the ladder; the step after the last lasts the rest of the UTC day. */
  ladderMinutes: number[];
  bansToday: number;
  cancelsToday: number;
  cancelsBeforeBan: number;
  /** The 24 h lock after a password change (spec §6), when it is in force. */
  lockedUntil: number | null;
}

/** One message of an order's chat: text, an image (GET /fiat/chatImg), or both. */
export interface FiatChatMessage {
  id: number;
  /** 'buyer', 'seller' or 'operator'. */
  by: 'buyer' | 'seller' | 'operator';
  text: string;
  hasImg: boolean;
  at: number;
}

/** An order as an operator reads it during an appeal. */
export interface FiatAppeal {
  id: number;
  userId: number;
  side: FiatSide;
  coin: string;
  fiat: string;
  amount: string;
  number: string;
  payImg: string | null;
  appealBy: string;
  appealKind: FiatAppealKind;
  appealReason: string;
  /** The evidence the appeal's kind asks for, in order, in the operator's language (rules FIAT_APPEAL_EVIDENCE). */
  evidence: { item: FiatEvidence; text: string }[];
  events: FiatOrderEvent[];
  /** The order's chat, the evidence both sides gave (images: /admin/uploads/<name>, audited). */
  messages: (FiatChatMessage & { img: string | null })[];
}

/** A merchant's ad as the merchant reads it (issue 16 item 1). */
export interface FiatAd {
  id: number;
  /** From the user's side: a 'buy' ad sells coin to users, a 'sell' ad buys it from them. */
  side: FiatSide;
  coin: string;
  fiat: string;
  /** The price now: fixed, or refreshed from the index for a floating ad. */
  price: string;
  priceType: FiatPriceType;
  /** A floating ad's premium over the index, in percent ('-0.6'); null for a fixed price. */
  premium: string | null;
  min: string;
  max: string;
  available: string;
  methods: FiatPayType[];
  /** How long a payer has to pay an order made on this ad, in minutes. */
  payWindowMinutes: number;
  /** Free-text terms the user reads before ordering and on the order (plain text). */
  terms: string;
  online: boolean;
}

/** The user's merchant standing: the application, the deposit, the ads and the orders to act on. */
export interface FiatMerchantView {
  state: 'none' | 'review' | 'approved' | 'rejected';
  name: string;
  /** The security deposit held while trading (coin and amount). */
  deposit: { coin: string; amount: string };
  ads: FiatAd[];
  orders: FiatOrder[];
}

/** A merchant application or merchant as an operator lists it (GET /admin/fiat/merchants). */
export interface FiatMerchantAdmin {
  merchantId: number;
  /** Null for the house merchant (demo), which no user owns. */
  userId: number | null;
  /** The user's e-mail or phone, always masked ('' for the house). */
  contact: string;
  /** The verified (KYC) name: only for operators holding pii.read (the read is audited), else null. */
  kycName: string | null;
  status: 'review' | 'approved' | 'rejected';
  /** The security deposit an approval holds, and whether it is held now. */
  deposit: { coin: string; amount: string; held: boolean };
  appliedAt: number;
  /** When an operator approved or rejected it (from the audit log); null while in review. */
  decidedAt: number | null;
}

/** An ad as an operator lists it (GET /admin/fiat/ads): the merchant's view plus whose it is. */
export interface FiatAdAdmin extends FiatAd {
  merchantId: number;
  merchantUserId: number | null;
}

/** One payment method of an ad with the merchant's payee details for it (in the merchant's verified name). */
export interface FiatAdMethod {
  payType: FiatPayType;
  payee: FiatPayee;
}

/** What a merchant publishes: its payment methods (one or more), payment window and terms. */
export interface FiatAdInput {
  side: FiatSide;
  coin: string;
  fiat: string;
  priceType: FiatPriceType;
  /** A fixed price ('' for a floating ad). */
  price: string;
  /** A floating ad's premium in percent ('' for a fixed price). */
  premium: string;
  min: string;
  max: string;
  available: string;
  methods: FiatAdMethod[];
  /** Minutes a payer has to pay (rules FIAT_PAY_WINDOW_MINUTES). */
  payWindowMinutes: number;
  /** Free-text terms, plain text (rules FIAT_AD_TERMS_MAX_CHARS). */
  terms: string;
}
