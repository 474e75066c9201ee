/**
 * Sign-in throttling (an attempt counts as a failure from before its password is checked, so parallel guesses
 * cannot all slip past the limit; a success takes it back): at most `perAccount` failures per address and username and `perAddress`
 * failures per address within the window; a success clears the account's counter.
 */
export class SignInThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(private readonly opts: { windowMs: number; perAccount: number; perAddress: number; now?: () => number }) {}

  private now(): number {
    return this.opts.now?.() ?? Date.now();
  }

  private recent(key: string): number[] {
    const since = this.now() - this.opts.windowMs;
    const list = (this.failures.get(key) ?? []).filter((t) => t > since);
    if (list.length) this.failures.set(key, list);
    else this.failures.delete(key);
    return list;
  }

  /** Milliseconds until another attempt is allowed, or 0. */
  retryAfterMs(ip: string, username: string): number {
    const blocked = [
      [this.recent(`a:${ip}|${username.toLowerCase()}`), this.opts.perAccount],
      [this.recent(`i:${ip}`), this.opts.perAddress],
    ] as const;
    let wait = 0;
    for (const [list, max] of blocked) if (list.length >= max) wait = Math.max(wait, list[list.length - max] + this.opts.windowMs - this.now());
    return Math.max(0, wait);
  }

  fail(ip: string, username: string): void {
    const t = this.now();
    for (const key of [`a:${ip}|${username.toLowerCase()}`, `i:${ip}`]) this.failures.set(key, [...this.recent(key), t]);
    if (this.failures.size > 10_000) this.failures.delete(this.failures.keys().next().value as string);
  }

  /** A sign-in that turned out right: its attempt no longer counts, and the account's failures are forgotten. */
  succeed(ip: string, username: string): void {
    this.failures.delete(`a:${ip}|${username.toLowerCase()}`);
    this.failures.get(`i:${ip}`)?.pop();
  }
}
