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
 *
 * The keys the capture began with are listed as its slices are read, not at
 * once (a million keys took 11 to 20 ms of one turn on a slow machine;
 * docs/core.md "Stop 41"). A map's live iteration lists its keys in the
 * order they were first set; keys set since come after them, and a value
 * replaced keeps its place. So while no key the capture began with is
 * deleted, they are exactly the first `size` keys of the live iteration.
 * The first such delete lists the rest at once, before the key goes.
 */
const ABSENT = Symbol('absent');

export class TrackedMap<K, V> extends Map<K, V> {
  /** Set only while a capture is open. A field initialiser runs after Map's constructor, so no entries are passed to it. */
  private before: Map<K, V | typeof ABSENT> | undefined;
  /** The open capture's keys, while they are still being listed. */
  private listing: KeyListing<K> | undefined;

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
    // A key the capture began with: list the rest of them now, while they are still the first keys.
    if (this.listing?.pending && super.has(key) && this.before!.get(key) !== ABSENT) {
      this.listing.finish();
      this.listing = undefined;
    }
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
   * nothing at once: its keys are listed as its slices ask for them (see
   * above); without `listKeys` (a caller that knows which keys it will ask
   * `valueAt` for) never.
   */
  capture(listKeys = true): MapCapture<K, V> {
    if (this.before !== undefined) throw new Error('a capture of this map is already open');
    const before = new Map<K, V | typeof ABSENT>();
    this.before = before;
    const listing = new KeyListing(this.keys(), listKeys ? this.size : 0);
    if (listKeys) this.listing = listing;
    return new MapCapture(this, listing, before, () => {
      this.before = undefined;
      this.listing = undefined;
    });
  }
}

/** The first `count` keys of a map's live iteration, listed as far as they are asked for. */
class KeyListing<K> {
  readonly keys: K[] = [];

  constructor(
    private readonly live: Iterator<K>,
    private readonly count: number,
  ) {}

  get pending(): boolean {
    return this.keys.length < this.count;
  }

  /** Lists keys until `length` of them are listed, or all `count`. */
  listTo(length: number): void {
    const end = Math.min(length, this.count);
    while (this.keys.length < end) this.keys.push(this.live.next().value as K);
  }

  finish(): void {
    this.listTo(this.count);
  }
}

/** The entries of a TrackedMap as they were when the capture began: the keys then, each with its value then. */
export class MapCapture<K, V> {
  private next = 0;
  private closed = false;

  constructor(
    private readonly map: Map<K, V>,
    private readonly listing: KeyListing<K>,
    private readonly before: Map<K, V | typeof ABSENT>,
    private readonly onClose: () => void,
  ) {}

  /** How many of the capture's keys are listed so far. */
  get listed(): number {
    return this.listing.keys.length;
  }

  /** The value of `key` at the capture, undefined if it had none. */
  valueAt(key: K): V | undefined {
    const image = this.before.get(key);
    if (image === ABSENT) return undefined;
    return image !== undefined ? image : this.map.get(key);
  }

  /** Up to `limit` entries as they were at the capture; an empty array once all were given. */
  slice(limit: number): [K, V][] {
    this.listing.listTo(this.next + limit);
    const keys = this.listing.keys;
    const end = Math.min(keys.length, this.next + limit);
    const out: [K, V][] = [];
    for (let index = this.next; index < end; index++) {
      const key = keys[index]!;
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
