import { describe, expect, it } from 'vitest';
import { prng } from '../state/command-stream.ts';
import { type MapCapture, TrackedMap } from './tracked-map.ts';

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

describe('TrackedMap capture: keys listed as the slices ask for them', () => {
  /** Every slice of `capture`, `between(read so far)` after each. */
  function readAll<V>(
    capture: MapCapture<number, V>,
    limit: number,
    between: (read: number) => void,
  ): Map<number, V> {
    const read = new Map<number, V>();
    for (let slice = capture.slice(limit); slice.length > 0; slice = capture.slice(limit)) {
      for (const [key, value] of slice) {
        expect(read.has(key), `key ${key} given twice`).toBe(false);
        read.set(key, value);
      }
      between(read.size);
    }
    return read;
  }

  it('lists no key at once, and only as many as were read while none the capture began with is deleted', () => {
    const map = new TrackedMap<number, { value: number }>();
    for (let key = 0; key < 1_000; key++) map.set(key, { value: key });
    const atCapture = new Map(map);
    const capture = map.capture();
    expect(capture.listed).toBe(0);
    let added = 1_000;
    const read = readAll(capture, 50, (readSoFar) => {
      expect(capture.listed).toBe(readSoFar);
      map.set(added, { value: added }); // a key set since: not the capture's
      map.set(added + 1, { value: 0 }); // another, replaced, then deleted
      map.set(added + 1, { value: 1 });
      map.delete(added + 1);
      map.set(added % 1_000, { value: -1 }); // a key the capture began with, replaced
      added += 2;
    });
    capture.close();
    expect(read).toEqual(atCapture);
  });

  it('lists the rest at the first delete of a key the capture began with, then reads them as they were', () => {
    const map = new TrackedMap<number, { value: number }>();
    for (let key = 0; key < 100; key++) map.set(key, { value: key });
    const atCapture = new Map(map);
    const capture = map.capture();
    const first = capture.slice(10);
    map.set(500, { value: 500 });
    map.delete(50); // not read yet
    expect(capture.listed).toBe(100);
    map.delete(5); // read already
    map.delete(7);
    map.set(7, { value: -7 }); // deleted, then set again: it moves to the end of the live order
    map.delete(500);
    const read = new Map([...first, ...readAll(capture, 13, () => map.set(600, { value: 600 }))]);
    capture.close();
    expect(read).toEqual(atCapture);
  });

  for (const seed of [6, 7, 8]) {
    it(`reads the entries as they were when the keys it began with are deleted only after half were read (seed ${seed})`, () => {
      const random = prng(seed);
      const map = new TrackedMap<number, { value: number }>();
      for (let key = 0; key < 500; key++) map.set(key, { value: key });
      const atCapture = new Map(map);
      const capture = map.capture();
      let slices = 0;
      const read = readAll(capture, 1 + random(20), () => {
        slices += 1;
        for (let change = 0; change < 10; change++) {
          const late = slices > 25;
          const key = late ? random(700) : 500 + random(200);
          if (random(3) === 0) map.delete(key);
          else map.set(late ? key : random(700), { value: -key });
        }
      });
      capture.close();
      expect(read).toEqual(atCapture);
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
