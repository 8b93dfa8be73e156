/**
 * A least-recently-used cache of byte buffers bounded by their total size, for values that never go stale
 * (the media route's width variants: a file id never changes content).
 */
export class ByteCache {
  readonly #entries = new Map<string, ArrayBuffer>();
  #bytes = 0;

  /**
   * @param maxBytes total size of the values kept, in bytes; a value larger than this is never kept.
   * @throws {RangeError} when `maxBytes` is not a positive integer.
   */
  constructor(readonly maxBytes: number) {
    if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0) {
      throw new RangeError(`ByteCache maxBytes must be a positive integer, got ${maxBytes}.`);
    }
  }

  /** Total size of the values kept, in bytes. */
  get size(): number {
    return this.#bytes;
  }

  /** The value for `key`, now the most recently used, or undefined. */
  get(key: string): ArrayBuffer | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  /** Keeps `value` under `key`, dropping the least recently used values until the total fits `maxBytes`. */
  set(key: string, value: ArrayBuffer): void {
    this.delete(key);
    if (value.byteLength > this.maxBytes) return;
    this.#entries.set(key, value);
    this.#bytes += value.byteLength;
    for (const [oldest, bytes] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= bytes.byteLength;
    }
  }

  /** Forgets `key`. */
  delete(key: string): void {
    const value = this.#entries.get(key);
    if (value === undefined) return;
    this.#entries.delete(key);
    this.#bytes -= value.byteLength;
  }
}
