/**
 * Token buckets keyed by a string (an accessKey id, a client address): each key holds up to `burst`
 * tokens and regains `perMinute` a minute; a request takes one. `perMinute` 0 disables the limiter.
 * Memory stays bounded: full buckets are forgotten, and past `maxKeys` the oldest entries go first.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly burst: number;
  private readonly perMs: number;

  constructor(
    readonly perMinute: number,
    burst = 0,
    private readonly now: () => number = Date.now,
    private readonly maxKeys = 10_000,
  ) {
    this.burst = Math.max(1, burst || perMinute);
    this.perMs = perMinute / 60_000;
  }

  get enabled(): boolean {
    return this.perMinute > 0;
  }

  /** Takes a token for `key`; false when its bucket is empty (the caller answers 1901). */
  take(key: string): boolean {
    if (!this.enabled) return true;
    const tokens = this.level(key);
    if (tokens < 1) return false;
    this.set(key, tokens - 1);
    return true;
  }

  /** True when `key` has no token left, without taking one. */
  exhausted(key: string): boolean {
    return this.enabled && this.level(key) < 1;
  }

  /** Seconds until `key` has a token again (0 when it has one). */
  retryAfterSec(key: string): number {
    if (!this.enabled) return 0;
    const missing = 1 - this.level(key);
    return missing <= 0 ? 0 : Math.ceil(missing / this.perMs / 1000);
  }

  /** Number of keys currently tracked (for tests: memory is bounded). */
  get size(): number {
    return this.buckets.size;
  }

  private level(key: string): number {
    const b = this.buckets.get(key);
    if (!b) return this.burst;
    const tokens = Math.min(this.burst, b.tokens + (this.now() - b.at) * this.perMs);
    if (tokens >= this.burst) this.buckets.delete(key); // full again: nothing to remember
    return tokens;
  }

  private set(key: string, tokens: number): void {
    this.buckets.delete(key); // re-insert: Map order is then least recently used first
    this.buckets.set(key, { tokens, at: this.now() });
    if (this.buckets.size > this.maxKeys) {
      for (const k of this.buckets.keys()) {
        this.buckets.delete(k);
        if (this.buckets.size <= this.maxKeys) break;
      }
    }
  }
}
