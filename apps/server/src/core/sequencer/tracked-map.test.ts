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
