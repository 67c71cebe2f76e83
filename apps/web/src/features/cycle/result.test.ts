import type { CyclePosition } from '@halyard/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pollSettled, refreshHistory } from './result.ts';

const open = { orderid: 'c1', state: 'open' } as CyclePosition;
const settled = { orderid: 'c1', state: 'settled', last_profit: '0' } as CyclePosition;

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** Runs the poll to its end on fake timers; returns the result and when each ask was made (ms). */
async function run(answers: Array<CyclePosition[] | Error>) {
  const askedAt: number[] = [];
  const start = Date.now();
  const fetchPosition = vi.fn(async () => {
    askedAt.push(Date.now() - start);
    const answer = answers[askedAt.length - 1] ?? [open];
    if (answer instanceof Error) throw answer;
    return answer;
  });
  const result = pollSettled('c1', fetchPosition);
  await vi.runAllTimersAsync();
  return { result: await result, askedAt, fetchPosition };
}

describe('the result of a finished cycle position', () => {
  it('is asked at once and, while still open, up to 4 more times 1 s apart', async () => {
    const { result, askedAt, fetchPosition } = await run([]);
    expect(result).toBeNull();
    expect(askedAt).toEqual([0, 1000, 2000, 3000, 4000]);
    expect(fetchPosition).toHaveBeenCalledWith('c1');
  });

  it('stops at the first settled answer, a draw (zero profit) included', async () => {
    const { result, askedAt } = await run([[open], [open], [settled]]);
    expect(result).toBe(settled);
    expect(askedAt).toEqual([0, 1000, 2000]);
  });

  it('asks again after a failed request', async () => {
    const { result, askedAt } = await run([new Error('network'), [settled]]);
    expect(result).toBe(settled);
    expect(askedAt).toEqual([0, 1000]);
  });

  it('is not fetched once only: an answer on the 5th ask still comes through', async () => {
    const { result } = await run([[open], [open], [open], [open], [settled]]);
    expect(result).toBe(settled);
  });
});

describe('the history after a finish', () => {
  it('is fetched 4 times, 1 s apart, even when a fetch fails', async () => {
    const fetchedAt: number[] = [];
    const start = Date.now();
    const refetch = vi.fn(async () => {
      fetchedAt.push(Date.now() - start);
      if (fetchedAt.length === 2) throw new Error('offline');
    });
    const done = refreshHistory(refetch);
    await vi.runAllTimersAsync();
    await done;
    expect(fetchedAt).toEqual([1000, 2000, 3000, 4000]);
  });
});
