/**
 * A Map whose state at one moment can be read in slices while it goes on
 * changing: the copy-on-write half of a snapshot that never stops the
 * sequencer for long.
 *
 * While a capture is open, the first `set` or `delete` of a key keeps the
 * value it had when the capture began (its before-image; ABSENT for a key
 * added since). Values are either immutable — replaced, never changed in
 * place — so keeping the reference is keeping the value; or, in a map made
 * with a `copy` function, changed in place only after `beforeChange(key)`,
 * which keeps a copy as the before-image instead. The ledger changes account
 * totals that way (copying every account it touched cost the replay dearly);
 * holds, transfers and orders are replaced.
 */
const ABSENT = Symbol('absent');

export class TrackedMap<K, V> extends Map<K, V> {
  /** Set only while a capture is open. A field initialiser runs after Map's constructor, so no entries are passed to it. */
  private before: Map<K, V | typeof ABSENT> | undefined;

  /** `copy`: how to copy a value for `beforeChange`; a map without one holds immutable values only. */
  constructor(private readonly copy?: (value: V) => V) {
    super();
  }

  override set(key: K, value: V): this {
    this.remember(key);
    return super.set(key, value);
  }

  override delete(key: K): boolean {
    this.remember(key);
    return super.delete(key);
  }

  /** Call before changing the value of `key` in place: an open capture keeps a copy of it first. */
  beforeChange(key: K): void {
    const before = this.before;
    if (before === undefined || before.has(key)) return;
    if (!this.copy)
      throw new Error('this TrackedMap holds immutable values: it has no copy for beforeChange');
    before.set(key, super.has(key) ? this.copy(super.get(key)!) : ABSENT);
  }

  private remember(key: K): void {
    const before = this.before;
    if (before !== undefined && !before.has(key)) before.set(key, super.has(key) ? super.get(key)! : ABSENT);
  }

  /**
   * Opens a capture of the entries as they are now; one at a time. It copies
   * the keys at once (a flat array: about 10 ms per million keys), and
   * nothing else; without `listKeys` (a caller that knows which keys it will
   * ask `valueAt` for) not even them.
   */
  capture(listKeys = true): MapCapture<K, V> {
    if (this.before !== undefined) throw new Error('a capture of this map is already open');
    const before = new Map<K, V | typeof ABSENT>();
    this.before = before;
    return new MapCapture(this, listKeys ? Array.from(this.keys()) : [], before, () => {
      this.before = undefined;
    });
  }
}

/** The entries of a TrackedMap as they were when the capture began: the keys then, each with its value then. */
export class MapCapture<K, V> {
  private next = 0;
  private closed = false;

  constructor(
    private readonly map: Map<K, V>,
    private readonly keys: K[],
    private readonly before: Map<K, V | typeof ABSENT>,
    private readonly onClose: () => void,
  ) {}

  /** The value of `key` at the capture, undefined if it had none. */
  valueAt(key: K): V | undefined {
    const image = this.before.get(key);
    if (image === ABSENT) return undefined;
    return image !== undefined ? image : this.map.get(key);
  }

  /** Up to `limit` entries as they were at the capture; an empty array once all were given. */
  slice(limit: number): [K, V][] {
    const end = Math.min(this.keys.length, this.next + limit);
    const out: [K, V][] = [];
    for (let index = this.next; index < end; index++) {
      const key = this.keys[index]!;
      out.push([key, this.valueAt(key)!]);
    }
    this.next = end;
    return out;
  }

  /** Stops recording before-images; call once the capture has been read. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.onClose();
  }
}
