import { describe, expect, it } from 'vitest';
import { prng } from '../state/command-stream.ts';
import { TrackedMap } from './tracked-map.ts';

describe('TrackedMap capture', () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    it(`reads the entries as they were at the capture while sets and deletes go on (seed ${seed})`, () => {
      const random = prng(seed);
      const map = new TrackedMap<number, { value: number }>();
      for (let key = 0; key < 500; key++) map.set(key, { value: key });
      const atCapture = new Map([...map].map(([key, value]) => [key, value]));
      const capture = map.capture();
      const read = new Map<number, { value: number }>();
      for (let slice = capture.slice(7); slice.length > 0; slice = capture.slice(1 + random(20))) {
        for (const [key, value] of slice) {
          expect(read.has(key), `key ${key} given twice`).toBe(false);
          read.set(key, value);
        }
        for (let change = 0; change < 10; change++) {
          const key = random(700);
          if (random(3) === 0) map.delete(key);
          else map.set(key, { value: -key });
        }
        const probe = random(700);
        expect(capture.valueAt(probe)).toBe(atCapture.get(probe));
      }
      capture.close();
      expect(read).toEqual(atCapture);
      // Closed: changes are no longer recorded, and a new capture may open.
      map.set(9_999, { value: 1 });
      expect(map.capture().valueAt(9_999)).toEqual({ value: 1 });
    });
  }
});

describe('TrackedMap beforeChange', () => {
  it('keeps a copy of a value changed in place while a capture is open, and only the first time', () => {
    const map = new TrackedMap<string, { total: number }>((value) => ({ ...value }));
    map.set('a', { total: 1 });
    map.set('b', { total: 2 });
    const capture = map.capture();
    for (const step of [10, 20]) {
      map.beforeChange('a');
      map.get('a')!.total += step;
    }
    map.beforeChange('c');
    map.set('c', { total: 3 });
    expect(capture.valueAt('a')).toEqual({ total: 1 });
    expect(capture.valueAt('c')).toBeUndefined();
    expect(capture.slice(10)).toEqual([
      ['a', { total: 1 }],
      ['b', { total: 2 }],
    ]);
    capture.close();
    expect(map.get('a')).toEqual({ total: 31 });
  });

  it('refuses to change in place the values of a map made without a copy, while a capture is open', () => {
    const map = new TrackedMap<string, { total: number }>();
    map.set('a', { total: 1 });
    map.beforeChange('a');
    const capture = map.capture();
    expect(() => map.beforeChange('a')).toThrow(/no copy/);
    capture.close();
  });
});
