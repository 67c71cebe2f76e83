import { describe, expect, it } from 'vitest';
import { ProjectionTimeoutError, ProjectorStoppedError } from '../projection/projector.ts';
import { type ProjectionProgress, ReadYourWrites } from './read-your-writes.ts';

/** A projection whose watermark the test moves; `projected` times out `timeouts` times before it waits. */
function fakeProjection(timeouts = 0) {
  let watermark = 0;
  let left = timeouts;
  const waiting: { seq: number; resolve(): void }[] = [];
  const errors: unknown[] = [];
  const progress: ProjectionProgress = {
    watermark: () => watermark,
    projected(seq) {
      if (seq <= watermark) return Promise.resolve();
      if (left > 0) {
        left -= 1;
        return Promise.reject(new ProjectionTimeoutError(seq, watermark, 1));
      }
      return new Promise((resolve) => waiting.push({ seq, resolve }));
    },
    onError: (error) => errors.push(error),
  };
  const moveTo = (seq: number) => {
    watermark = seq;
    for (const waiter of waiting.filter((w) => w.seq <= seq)) waiter.resolve();
  };
  return { progress, moveTo, errors, waiting };
}

describe('read-your-writes on the core', () => {
  it('a reply waits for SQL past the bound, telling each time, and never rejects', async () => {
    const sql = fakeProjection(2);
    const rules = new ReadYourWrites(sql.progress);
    const readable = rules.readable(5);
    await expect.poll(() => sql.waiting.length).toBe(1);
    expect(sql.errors.map((error) => (error as Error).name)).toEqual([
      'ProjectionTimeoutError',
      'ProjectionTimeoutError',
    ]);
    sql.moveTo(5);
    await readable;
  });

  it('resolves when the projector stopped, telling why', async () => {
    const stopped = new ProjectorStoppedError('closed');
    const rules = new ReadYourWrites({
      watermark: () => 0,
      projected: () => Promise.reject(stopped),
      onError: (error) => expect(error).toBe(stopped),
    });
    await rules.readable(3);
  });

  it('makes a user answered ahead wait, and only that user, until SQL holds their latest reply', async () => {
    const sql = fakeProjection();
    const rules = new ReadYourWrites(sql.progress);
    rules.answeredAhead(1, 4);
    rules.answeredAhead(1, 3); // an older reply changes nothing
    await rules.caughtUp(2);
    let caughtUp = false;
    const one = rules.caughtUp(1).then(() => {
      caughtUp = true;
    });
    await expect.poll(() => sql.waiting.map((waiter) => waiter.seq)).toEqual([4]);
    sql.moveTo(3);
    await Promise.resolve();
    expect(caughtUp).toBe(false);
    sql.moveTo(4);
    await one;
    // Caught up once, the user's next request does not wait.
    await rules.caughtUp(1);
    expect(sql.waiting).toHaveLength(1);
  });

  it("waits for the latest of a user's replies", async () => {
    const sql = fakeProjection();
    const rules = new ReadYourWrites(sql.progress);
    rules.answeredAhead(7, 2);
    rules.answeredAhead(7, 6);
    const caughtUp = rules.caughtUp(7);
    await expect.poll(() => sql.waiting.map((waiter) => waiter.seq)).toEqual([6]);
    sql.moveTo(6);
    await caughtUp;
  });
});
