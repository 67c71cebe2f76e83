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

  it('coalesces a burst: the first at once, the latest one interval later, none between', () => {
    const { coalescer, emitted } = recording();
    for (let update = 1; update <= 50; update += 1) {
      coalescer.offer('buy|BTC', `u${update}`);
      vi.advanceTimersByTime(1);
    }
    vi.advanceTimersByTime(1_000);
    expect(emitted).toEqual([
      { value: 'u1', at: 0 },
      { value: 'u50', at: INTERVAL },
    ]);
  });

  it('holds a value that comes too soon only until the interval has passed', () => {
    const { coalescer, emitted } = recording();
    coalescer.offer('buy|BTC', 'a');
    vi.advanceTimersByTime(90);
    coalescer.offer('buy|BTC', 'b');
    vi.advanceTimersByTime(9);
    expect(emitted).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(emitted).toEqual([
      { value: 'a', at: 0 },
      { value: 'b', at: INTERVAL },
    ]);
  });

  it('keeps to the schedule when a held value goes out late: the next one is not held for it', () => {
    const { coalescer, emitted } = recording();
    coalescer.offer('buy|BTC', 'a');
    vi.advanceTimersByTime(50);
    coalescer.offer('buy|BTC', 'b');
    // A busy event loop: the clock moves on and the release timer (due at 100) fires at 155.
    vi.setSystemTime(105);
    vi.advanceTimersByTime(50);
    vi.advanceTimersByTime(45);
    coalescer.offer('buy|BTC', 'c');
    expect(emitted).toEqual([
      { value: 'a', at: 0 },
      { value: 'b', at: 155 },
      { value: 'c', at: 200 },
    ]);
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
    coalescer.close();
    vi.advanceTimersByTime(1_000);
    expect(emitted.map((emit) => emit.value)).toEqual(['a']);
  });

  it('at most one emit per interval, each the latest value, never later than one interval, the last always out', () => {
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
            const previous = emitted[index - 1];
            if (previous) expect(emit.at - previous.at).toBeGreaterThanOrEqual(INTERVAL);
            expect(emit.value).toBe(emit.latest.value);
            expect(emit.at - emit.latest.at).toBeLessThanOrEqual(INTERVAL);
          }
          expect(emitted.at(-1)?.value).toBe(latest.value);
        },
      ),
    );
  });
});
