/**
 * A Map whose state at one moment can be read in slices while it goes on
 * changing: the copy-on-write half of a snapshot that never stops the
 * sequencer for long.
 *
 * While a capture is open, the first `set` or `delete` of a key keeps the
 * value it had when the capture began (its before-image; ABSENT for a key
 * added since). Values must be immutable — replaced, never changed in place —
 * so keeping the reference is keeping the value. The ledger's plan follows
 * that rule already: it copies an account or hold before changing it and
 * `mergePlan` puts the copy in.
 */
const ABSENT = Symbol('absent');

export class TrackedMap<K, V> extends Map<K, V> {
  /** Set only while a capture is open. A field initialiser runs after Map's constructor, so no entries are passed to it. */
  private before: Map<K, V | typeof ABSENT> | undefined;

  override set(key: K, value: V): this {
    this.remember(key);
    return super.set(key, value);
  }

  override delete(key: K): boolean {
    this.remember(key);
    return super.delete(key);
  }

  private remember(key: K): void {
    const before = this.before;
    if (before !== undefined && !before.has(key)) before.set(key, super.has(key) ? super.get(key)! : ABSENT);
  }

  /** Opens a capture of the entries as they are now; one at a time. */
  capture(): MapCapture<K, V> {
    if (this.before !== undefined) throw new Error('a capture of this map is already open');
    const before = new Map<K, V | typeof ABSENT>();
    this.before = before;
    return new MapCapture(this, before, () => {
      this.before = undefined;
    });
  }
}

/**
 * The entries of a TrackedMap as they were when the capture began. `slice`
 * walks the live map (a Map iterator survives changes: it skips deleted keys
 * and reaches keys added later) and gives, for a key changed since, its
 * before-image, once; then the keys deleted since. `valueAt` answers one key.
 */
export class MapCapture<K, V> {
  private readonly live: Iterator<[K, V]>;
  private readonly emitted = new Set<K>();
  private deleted: Iterator<[K, V | typeof ABSENT]> | null = null;
  private closed = false;

  constructor(
    private readonly map: Map<K, V>,
    private readonly before: Map<K, V | typeof ABSENT>,
    private readonly onClose: () => void,
  ) {
    this.live = map.entries();
  }

  /** The value of `key` at the capture, undefined if it had none. */
  valueAt(key: K): V | undefined {
    const image = this.before.get(key);
    if (image === ABSENT) return undefined;
    return image !== undefined ? image : this.map.get(key);
  }

  /** Up to `limit` entries as they were at the capture; an empty array once all were given. */
  slice(limit: number): [K, V][] {
    const out: [K, V][] = [];
    while (out.length < limit && this.deleted === null) {
      const next = this.live.next();
      if (next.done) this.deleted = this.before.entries();
      else this.visit(next.value[0], next.value[1], out);
    }
    while (out.length < limit && this.deleted !== null) {
      const next = this.deleted.next();
      if (next.done) break;
      const [key, image] = next.value;
      if (image !== ABSENT && !this.emitted.has(key)) {
        this.emitted.add(key);
        out.push([key, image]);
      }
    }
    return out;
  }

  private visit(key: K, value: V, out: [K, V][]): void {
    if (this.emitted.has(key)) return;
    const image = this.before.get(key);
    if (image === ABSENT) return;
    this.emitted.add(key);
    out.push([key, image === undefined ? value : image]);
  }

  /** Stops recording before-images; call once the capture has been read. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.onClose();
  }
}
