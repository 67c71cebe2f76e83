import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Coalescer } from './coalescer.ts';

const INTERVAL = 100;

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});

afterEach(() => {
  vi.useRealTimers();
});

/** A coalescer on the fake clock that records when each value went out; `emitTakesMs` models a slow fan-out. */
function recording(emitTakesMs = 0) {
  const emitted: Array<{ value: string; at: number }> = [];
  const coalescer = new Coalescer<string>({
    intervalMs: INTERVAL,
    now: () => Date.now(),
    emit: (value) => {
      emitted.push({ value, at: Date.now() });
      vi.setSystemTime(Date.now() + emitTakesMs);
    },
  });
  return { coalescer, emitted };
}

describe('coalescer', () => {
  it('sends the first value of a key at once', () => {
    const { coalescer, emitted } = recording();
    coalescer.offer('buy|BTC', 'a');
    expect(emitted).toEqual([{ value: 'a', at: 0 }]);
  });

  it('passes a steady stream at the limit without holding anything back, even when each emit takes time', () => {
    const { coalescer, emitted } = recording(30);
    for (let push = 0; push < 10; push += 1) {
      vi.setSystemTime(push * INTERVAL);
      coalescer.offer('buy|BTC', `p${push}`);
    }
    expect(emitted).toEqual(
      Array.from({ length: 10 }, (_, push) => ({ value: `p${push}`, at: push * INTERVAL })),
    );
  });

  it('sends a value after a quiet spell at once', () => {
    const { coalescer, emitted } = recording();
    coalescer.offer('buy|BTC', 'a');
    vi.advanceTimersByTime(5_000);
    coalescer.offer('buy|BTC', 'b');
    expect(emitted.map((emit) => emit.at)).toEqual([0, 5_000]);
  });

  it('coalesces a burst: two at once (the slack), then the latest one interval later, none between', () => {
    const { coalescer, emitted } = recording();
    for (let update = 1; update <= 50; update += 1) {
      coalescer.offer('buy|BTC', `u${update}`);
      vi.advanceTimersByTime(1);
    }
    vi.advanceTimersByTime(1_000);
    expect(emitted).toEqual([
      { value: 'u1', at: 0 },
      { value: 'u2', at: 1 },
      { value: 'u50', at: INTERVAL },
    ]);
  });

  it('holds a value that comes too soon only until there is room', () => {
    const { coalescer, emitted } = recording();
    coalescer.offer('buy|BTC', 'a');
    coalescer.offer('buy|BTC', 'b');
    vi.advanceTimersByTime(90);
    coalescer.offer('buy|BTC', 'c');
    vi.advanceTimersByTime(9);
    expect(emitted).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(emitted.map((emit) => [emit.value, emit.at])).toEqual([
      ['a', 0],
      ['b', 0],
      ['c', INTERVAL],
    ]);
  });

  it('lets a stream at the limit catch up after a late value instead of holding every later one back', () => {
    const { coalescer, emitted } = recording();
    const dueTimes = [0, 100, 273, 300, 400, 500];
    for (const due of dueTimes) {
      vi.setSystemTime(due);
      coalescer.offer('buy|BTC', `at${due}`);
    }
    expect(emitted.map((emit) => emit.at)).toEqual(dueTimes);
  });

  it('limits each key on its own', () => {
    const { coalescer, emitted } = recording();
    coalescer.offer('buy|BTC', 'a');
    coalescer.offer('sell|BTC', 'b');
    coalescer.offer('buy|ETH', 'c');
    expect(emitted.map((emit) => emit.value)).toEqual(['a', 'b', 'c']);
  });

  it('emits nothing after close', () => {
    const { coalescer, emitted } = recording();
    coalescer.offer('buy|BTC', 'a');
    coalescer.offer('buy|BTC', 'b');
    coalescer.offer('buy|BTC', 'c');
    coalescer.close();
    vi.advanceTimersByTime(1_000);
    expect(emitted.map((emit) => emit.value)).toEqual(['a', 'b']);
  });

  it('one emit per interval on average with one of slack, each the latest value, never later than one interval, the last always out', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 250 }), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 0, max: 150 }),
        (gaps, emitTakesMs) => {
          vi.setSystemTime(0);
          let latest = { value: '', at: 0 };
          const emitted: Array<{ value: string; at: number; latest: { value: string; at: number } }> = [];
          const coalescer = new Coalescer<string>({
            intervalMs: INTERVAL,
            now: () => Date.now(),
            emit: (value) => {
              emitted.push({ value, at: Date.now(), latest });
              vi.setSystemTime(Date.now() + emitTakesMs);
            },
          });
          gaps.forEach((gap, index) => {
            vi.advanceTimersByTime(gap);
            latest = { value: `v${index}`, at: Date.now() };
            coalescer.offer('k', latest.value);
          });
          vi.advanceTimersByTime(INTERVAL + 1);
          coalescer.close();

          for (const [index, emit] of emitted.entries()) {
            // Two emits may be back to back; any k + 1 emits span at least k − 1 intervals (≤ 11 in a second).
            for (let back = 2; back <= index; back += 1) {
              expect(emit.at - (emitted[index - back]?.at ?? 0)).toBeGreaterThanOrEqual(
                (back - 1) * INTERVAL,
              );
            }
            expect(emit.value).toBe(emit.latest.value);
            expect(emit.at - emit.latest.at).toBeLessThanOrEqual(INTERVAL);
          }
          expect(emitted.at(-1)?.value).toBe(latest.value);
        },
      ),
    );
  });
});
