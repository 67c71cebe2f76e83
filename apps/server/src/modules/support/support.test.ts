import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock.ts';
import { ADMIN_TOKEN, signUp, startApp, type TestApp } from './test-helpers.ts';

const admin = { 'admin-token': ADMIN_TOKEN };
const TEN = 'abcdefghij';
let app: TestApp;

afterEach(async () => {
  await app?.close();
});

async function submit(token: string, payload: object, lang = 'en') {
  const response = await app.http.inject({
    method: 'POST',
    url: '/user/addOnline',
    headers: { token, lang },
    payload,
  });
  return response.json();
}

async function myTickets(token: string, query = '') {
  const response = await app.http.inject({
    method: 'GET',
    url: `/user/onlineList${query}`,
    headers: { token },
  });
  return response.json();
}

async function operator(method: 'GET' | 'POST', url: string, payload?: object, headers: object = admin) {
  const response = await app.http.inject({
    method,
    url,
    payload,
    headers: headers as Record<string, string>,
  });
  return response.json();
}

describe('help tickets', () => {
  it('needs a signed-in user', async () => {
    app = await startApp({ demo: false });
    const response = await app.http.inject({
      method: 'POST',
      url: '/user/addOnline',
      payload: { title: 'Help', content: TEN },
    });
    expect(response.json()).toMatchObject({ code: 401, msg: 'Please log in' });
    expect((await myTickets('not-a-session')).code).toBe(401);
    expect((await operator('GET', '/admin/support/tickets')).data.count).toBe(0);
  });

  it("submits a ticket as waiting and lists the user's tickets newest first, paged", async () => {
    const clock = new ManualClock();
    app = await startApp({ demo: false, clock });
    const token = await signUp(app, 'carol@example.com');
    const first = await submit(token, {
      title: 'Deposit missing',
      content: 'My USDT deposit has not arrived yet.',
    });
    expect(first).toMatchObject({
      code: 200,
      msg: 'Your ticket has been submitted. We will reply as soon as possible',
      data: { title: 'Deposit missing', reply: '', status: 'waiting', wdate: clock.now() },
    });
    for (const title of ['Second', 'Third']) {
      clock.advance(1_000);
      expect((await submit(token, { title, content: `${title} question, please help` })).code).toBe(200);
    }
    const all = await myTickets(token);
    expect(all.data.count).toBe(3);
    expect(all.data.list.map((ticket: { title: string }) => ticket.title)).toEqual([
      'Third',
      'Second',
      'Deposit missing',
    ]);
    expect(Object.keys(all.data.list[0]).sort()).toEqual(
      ['content', 'id', 'reply', 'status', 'title', 'updatedAt', 'wdate'].sort(),
    );
    const page2 = await myTickets(token, '?page=2&limit=2');
    expect(page2.data).toEqual({ count: 3, list: all.data.list.slice(2) });
  });

  it.each([
    ['a missing title', { content: TEN }, 'Please enter a title', '请输入标题'],
    ['a blank title', { title: '   ', content: TEN }, 'Please enter a title', '请输入标题'],
    ['a missing content', { title: 'Help' }, 'Please describe your problem', null],
    [
      '9 characters',
      { title: 'Help', content: 'abcdefghi' },
      'The description must be 10-200 characters',
      null,
    ],
    [
      '201 characters',
      { title: 'Help', content: 'x'.repeat(201) },
      'The description must be 10-200 characters',
      null,
    ],
  ])('refuses %s with a localised message and stores nothing', async (_case, payload, en, cn) => {
    app = await startApp({ demo: false });
    const token = await signUp(app, 'dave@example.com');
    expect(await submit(token, payload)).toMatchObject({ code: 400, msg: en, data: null });
    if (cn) expect((await submit(token, payload, 'cn')).msg).toBe(cn);
    expect((await myTickets(token)).data).toEqual({ list: [], count: 0 });
    expect((await operator('GET', '/admin/support/tickets')).data.count).toBe(0);
  });

  it('accepts exactly 10 and exactly 200 characters', async () => {
    app = await startApp({ demo: false });
    const token = await signUp(app, 'erin@example.com');
    expect((await submit(token, { title: 'Short', content: TEN })).code).toBe(200);
    expect((await submit(token, { title: 'Long', content: 'y'.repeat(200) })).code).toBe(200);
    expect((await myTickets(token)).data.count).toBe(2);
  });

  it('shows a user only their own tickets and lets no one else close them', async () => {
    app = await startApp({ demo: false });
    const frank = await signUp(app, 'frank@example.com');
    const grace = await signUp(app, 'grace@example.com');
    const franks = await submit(frank, { title: 'Frank asks', content: 'Where is my withdrawal?' });
    await submit(grace, { title: 'Grace asks', content: 'How do I set a fund password?' });

    const graceList = await myTickets(grace);
    expect(graceList.data.count).toBe(1);
    expect(graceList.data.list[0].title).toBe('Grace asks');

    const stolen = await app.http.inject({
      method: 'POST',
      url: '/user/closeOnline',
      headers: { token: grace },
      payload: { id: franks.data.id },
    });
    expect(stolen.json()).toMatchObject({ code: 404, msg: 'This ticket does not exist' });
    expect((await myTickets(frank)).data.list[0].status).toBe('waiting');
  });

  it('lets the author close their own ticket, after which it takes no reply', async () => {
    app = await startApp({ demo: false });
    const token = await signUp(app, 'heidi@example.com');
    const ticket = await submit(token, { title: 'Never mind', content: 'I found the answer myself.' });
    const close = () =>
      app.http.inject({
        method: 'POST',
        url: '/user/closeOnline',
        headers: { token },
        payload: { id: ticket.data.id },
      });
    expect((await close()).json()).toMatchObject({ code: 200, msg: 'Ticket closed' });
    expect((await myTickets(token)).data.list[0].status).toBe('closed');
    expect((await close()).json()).toMatchObject({ code: 409, msg: 'This ticket is closed' });
    const reply = await operator('POST', `/admin/support/tickets/${ticket.data.id}/reply`, {
      reply: 'Glad to hear',
    });
    expect(reply.code).toBe(409);
    expect((await myTickets(token)).data.list[0]).toMatchObject({ status: 'closed', reply: '' });
  });

  it('runs the operator flow: waiting → responded → closed', async () => {
    const clock = new ManualClock();
    app = await startApp({ demo: false, clock });
    const ivan = await signUp(app, 'ivan@example.com');
    const ticket = await submit(ivan, { title: 'KYC stuck', content: 'My KYC has been in review for days.' });

    const waiting = await operator('GET', '/admin/support/tickets?status=waiting');
    expect(waiting.data.count).toBe(1);
    expect(waiting.data.list[0]).toMatchObject({ id: ticket.data.id, title: 'KYC stuck' });
    expect(waiting.data.list[0].userId).toEqual(expect.any(Number));

    clock.advance(5_000);
    const replied = await operator('POST', `/admin/support/tickets/${ticket.data.id}/reply`, {
      reply: 'We have reviewed it now.',
    });
    expect(replied).toMatchObject({ code: 200, msg: 'Reply sent' });
    expect((await myTickets(ivan)).data.list[0]).toMatchObject({
      status: 'responded',
      reply: 'We have reviewed it now.',
      updatedAt: clock.now(),
    });
    expect((await operator('GET', '/admin/support/tickets?status=waiting')).data.count).toBe(0);
    expect((await operator('GET', '/admin/support/tickets?status=responded')).data.count).toBe(1);

    const closed = await operator('POST', `/admin/support/tickets/${ticket.data.id}/close`);
    expect(closed).toMatchObject({ code: 200, msg: 'Ticket closed' });
    expect((await myTickets(ivan)).data.list[0]).toMatchObject({
      status: 'closed',
      reply: 'We have reviewed it now.',
    });
    expect((await operator('POST', '/admin/support/tickets/999/reply', { reply: 'x' })).code).toBe(404);
    expect((await operator('POST', '/admin/support/tickets/999/close')).code).toBe(404);
  });

  it('refuses the operator routes without the admin token and changes nothing', async () => {
    app = await startApp({ demo: false });
    const judy = await signUp(app, 'judy@example.com');
    const ticket = await submit(judy, { title: 'Question', content: 'A question about fees.' });
    for (const headers of [{}, { 'admin-token': 'wrong' }, { token: judy }]) {
      const list = await operator('GET', '/admin/support/tickets', undefined, headers);
      expect(list).toMatchObject({ code: 403, msg: 'You are not allowed to do this', data: null });
      const reply = await operator(
        'POST',
        `/admin/support/tickets/${ticket.data.id}/reply`,
        { reply: 'x' },
        headers,
      );
      expect(reply.code).toBe(403);
      const close = await operator(
        'POST',
        `/admin/support/tickets/${ticket.data.id}/close`,
        undefined,
        headers,
      );
      expect(close.code).toBe(403);
    }
    expect((await myTickets(judy)).data.list[0]).toMatchObject({ status: 'waiting', reply: '' });
  });
});
