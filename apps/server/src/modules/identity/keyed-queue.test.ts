import { describe, expect, it } from 'vitest';
import { KeyedQueue } from './keyed-queue.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('keyed queue', () => {
  it('runs the calls of one key one at a time, in order, and those of other keys alongside', async () => {
    const queue = new KeyedQueue();
    const log: string[] = [];
    const step = (name: string) => async () => {
      log.push(`${name} start`);
      await tick();
      log.push(`${name} end`);
    };
    await Promise.all([queue.run('a', step('a1')), queue.run('a', step('a2')), queue.run('b', step('b1'))]);
    expect(log.indexOf('a1 end')).toBeLessThan(log.indexOf('a2 start'));
    expect(log.indexOf('b1 start')).toBeLessThan(log.indexOf('a1 end'));
    expect(queue.size).toBe(0);
  });

  it('goes on after a failed call, which fails alone', async () => {
    const queue = new KeyedQueue();
    const failed = queue.run('a', async () => {
      throw new Error('no');
    });
    const next = queue.run('a', async () => 'yes');
    await expect(failed).rejects.toThrow('no');
    expect(await next).toBe('yes');
  });
});
