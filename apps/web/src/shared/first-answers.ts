import { CODE } from '@halyard/protocol';

/**
 * Answers the server put inside the page for the GETs a screen makes as it
 * starts (apps/server/src/http/web-app.ts), so the first render has its data
 * without a round trip: a query takes its answer as `initialData`, else the api
 * client's fetch finds it. Each answer serves once, only for the same URL in
 * the same language (the server guesses the language from Accept-Language; a
 * stored other choice just goes to the network); later calls always do.
 */
export const FIRST_ANSWERS_ID = 'hy-first-answers';

interface FirstAnswers {
  lang: string;
  answers: Record<string, unknown>;
}

/** Read from the page on the first call; null when the page carries none. */
let unread: FirstAnswers | null | undefined;

function readPage(): FirstAnswers | null {
  const text = document.getElementById(FIRST_ANSWERS_ID)?.textContent;
  if (!text) return null;
  try {
    const parsed = JSON.parse(text) as FirstAnswers;
    return typeof parsed.lang === 'string' && typeof parsed.answers === 'object' ? parsed : null;
  } catch {
    return null;
  }
}

/** The page's envelope for a GET of `url` in `lang`, used up; undefined when there is none. */
function take(url: string, lang: string | null): unknown {
  if (unread === undefined) unread = readPage();
  if (!unread || lang !== unread.lang || !(url in unread.answers)) return undefined;
  const answer = unread.answers[url];
  delete unread.answers[url];
  return answer;
}

/** The page's answer to this GET as a fetch Response, used up; null when the network must answer. */
export function takeFirstAnswer(url: string, init?: RequestInit): Response | null {
  if ((init?.method ?? 'GET') !== 'GET') return null;
  const answer = take(url, new Headers(init?.headers).get('lang'));
  if (answer === undefined) return null;
  return new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } });
}

/**
 * The `data` of the page's answer to a GET of `url` in `lang`, used up: a query's
 * `initialData`, so its first render already has it (no second render when it lands).
 */
export function firstAnswerData<T>(url: string, lang: string): T | undefined {
  const answer = take(url, lang) as { code?: number; data?: T } | undefined;
  return answer?.code === CODE.ok ? answer.data : undefined;
}

/** Tests: forget what was read, so the next call reads the page again. */
export function forgetFirstAnswers(): void {
  unread = undefined;
}
