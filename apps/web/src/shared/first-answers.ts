/**
 * Answers the server put inside the page for the GETs a screen makes as it
 * starts (apps/server/src/http/web-app.ts): the first render has its data
 * without a round trip. Each answer serves one call, only for the same URL in
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

/** The page's answer to this GET as a fetch Response, used up; null when the network must answer. */
export function takeFirstAnswer(url: string, init?: RequestInit): Response | null {
  if (unread === undefined) unread = readPage();
  if (!unread || (init?.method ?? 'GET') !== 'GET') return null;
  if (new Headers(init?.headers).get('lang') !== unread.lang || !(url in unread.answers)) return null;
  const answer = unread.answers[url];
  delete unread.answers[url];
  return new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } });
}

/** Tests: forget what was read, so the next call reads the page again. */
export function forgetFirstAnswers(): void {
  unread = undefined;
}
