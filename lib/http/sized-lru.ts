/**
 * A least-recently-used map bounded by the total size of its values (and optionally their count), for the
 * site's in-memory caches: rendered pages (`page-cache.ts`) and the media route's image variants.
 */
export interface SizedLruOptions<V> {
  /** Total size of the values kept; a value larger than this is never kept. A positive integer. */
  maxBytes: number;
  /** Most values kept (default: no bound but `maxBytes`). */
  maxEntries?: number;
  /** A value's size, in the unit of `maxBytes` (bytes). */
  sizeOf: (value: V) => number;
}

export class SizedLru<V> {
  readonly #entries = new Map<string, V>();
  #bytes = 0;

  /** @throws {RangeError} when `maxBytes` is not a positive integer. */
  constructor(private readonly options: SizedLruOptions<V>) {
    if (!Number.isSafeInteger(options.maxBytes) || options.maxBytes <= 0) {
      throw new RangeError(`maxBytes must be a positive integer, got ${options.maxBytes}.`);
    }
  }

  /** Total size of the values kept. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Number of values kept. */
  get count(): number {
    return this.#entries.size;
  }

  /** The value for `key`, now the most recently used, or undefined. */
  get(key: string): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  /**
   * Keeps `value` under `key` (replacing any), then drops the least recently used values until both bounds hold.
   * @returns false when the value alone is larger than `maxBytes` (it is not kept).
   */
  set(key: string, value: V): boolean {
    this.delete(key);
    const size = this.options.sizeOf(value);
    if (size > this.options.maxBytes) return false;
    this.#entries.set(key, value);
    this.#bytes += size;
    const maxEntries = this.options.maxEntries ?? Infinity;
    for (const oldest of this.#entries.keys()) {
      if (this.#bytes <= this.options.maxBytes && this.#entries.size <= maxEntries) break;
      this.delete(oldest);
    }
    return true;
  }

  /** Forgets `key`. */
  delete(key: string): void {
    const value = this.#entries.get(key);
    if (value === undefined) return;
    this.#entries.delete(key);
    this.#bytes -= this.options.sizeOf(value);
  }

  /** Forgets everything. */
  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }
}
