// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { FIRST_ANSWERS_ID, firstAnswerData, forgetFirstAnswers, takeFirstAnswer } from './first-answers.ts';

function pageWith(content: string) {
  const script = document.createElement('script');
  script.type = 'application/json';
  script.id = FIRST_ANSWERS_ID;
  script.textContent = content;
  document.head.append(script);
}

const envelope = { code: 200, msg: 'Success', data: [{ id: 1 }] };
const get = (lang: string) => ({ method: 'GET', headers: { lang } });

afterEach(() => {
  document.getElementById(FIRST_ANSWERS_ID)?.remove();
  forgetFirstAnswers();
});

describe('first answers', () => {
  it('answers a GET of the same URL and language once, then leaves it to the network', async () => {
    pageWith(JSON.stringify({ lang: 'en', answers: { '/home/banner?type=app': envelope } }));
    const first = takeFirstAnswer('/home/banner?type=app', get('en'));
    expect(await first?.json()).toEqual(envelope);
    expect(takeFirstAnswer('/home/banner?type=app', get('en'))).toBeNull();
  });

  it('leaves other URLs, other languages and writes to the network', () => {
    pageWith(JSON.stringify({ lang: 'en', answers: { '/home/aboutUs': envelope } }));
    expect(takeFirstAnswer('/home/aboutUs?x=1', get('en'))).toBeNull();
    expect(takeFirstAnswer('/home/aboutUs', get('cn'))).toBeNull();
    expect(takeFirstAnswer('/home/aboutUs', { method: 'POST', headers: { lang: 'en' } })).toBeNull();
    expect(takeFirstAnswer('/home/aboutUs', get('en'))).not.toBeNull();
  });

  it("gives a query its answer's data at once, once, and nothing for a failed answer", () => {
    const failed = { code: 500, msg: 'down', data: null };
    pageWith(
      JSON.stringify({ lang: 'en', answers: { '/home/versions': envelope, '/trad/overview': failed } }),
    );
    expect(firstAnswerData('/home/versions', 'cn')).toBeUndefined();
    expect(firstAnswerData('/home/versions', 'en')).toEqual(envelope.data);
    expect(firstAnswerData('/home/versions', 'en')).toBeUndefined();
    expect(firstAnswerData('/trad/overview', 'en')).toBeUndefined();
  });

  it('answers nothing when the page carries none or garbage', () => {
    expect(takeFirstAnswer('/home/aboutUs', get('en'))).toBeNull();
    forgetFirstAnswers();
    pageWith('{not json');
    expect(takeFirstAnswer('/home/aboutUs', get('en'))).toBeNull();
  });
});
