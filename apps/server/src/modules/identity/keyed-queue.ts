/**
 * Runs async work one call at a time per key, in call order, within this
 * process. A key's entry is forgotten when its last call ends, so the map
 * holds only the keys with work in progress.
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(work);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Keys with work in progress. */
  get size(): number {
    return this.tails.size;
  }
}
