import { addressGroup } from "../net/address-group";

export { addressGroup };

export interface ThrottleOptions {
  windowMs: number;
  /** failures per address and account within the window */
  perAccount: number;
  /** failures per address within the window */
  perAddress: number;
  /**
   * failures per account from all addresses within the window before each further attempt waits: `accountDelayMs`
   * after the last failure, doubling with every failure past the budget, up to `accountMaxDelayMs`. Omitted: none.
   */
  accountBudget?: number;
  accountDelayMs?: number;
  accountMaxDelayMs?: number;
  now?: () => number;
}

/**
 * Sign-in throttling (an attempt counts as a failure from before its password is checked, so parallel guesses
 * cannot all slip past the limit; a success takes it back): at most `perAccount` failures per address and username and
 * `perAddress` failures per address within the window, IPv6 addresses grouped by /64; and over all addresses, past
 * `accountBudget` failures of one account, a growing delay between its attempts. The delay is never a lockout: it
 * ends, and a browser the account signed in from before (a known device) skips it.
 */
export class SignInThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(private readonly opts: ThrottleOptions) {}

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

  private keys(ip: string, username: string): string[] {
    const at = addressGroup(ip);
    const name = username.toLowerCase();
    return [`a:${at}|${name}`, `i:${at}`, `u:${name}`];
  }

  /** The account-wide wait after `n` failures ending at `last` (0 within the budget). */
  private accountWait(list: number[]): number {
    const budget = this.opts.accountBudget;
    if (budget === undefined || list.length < budget) return 0;
    const base = this.opts.accountDelayMs ?? 1000;
    const delay = Math.min(this.opts.accountMaxDelayMs ?? 60_000, base * 2 ** Math.min(30, list.length - budget));
    return list[list.length - 1] + delay - this.now();
  }

  /** Milliseconds until another attempt is allowed, or 0. `knownDevice`: the account-wide delay does not apply. */
  retryAfterMs(ip: string, username: string, knownDevice = false): number {
    const [pair, address, account] = this.keys(ip, username);
    const blocked = [
      [this.recent(pair), this.opts.perAccount],
      [this.recent(address), this.opts.perAddress],
    ] as const;
    let wait = 0;
    for (const [list, max] of blocked) if (list.length >= max) wait = Math.max(wait, list[list.length - max] + this.opts.windowMs - this.now());
    if (!knownDevice) wait = Math.max(wait, this.accountWait(this.recent(account)));
    return Math.max(0, Math.ceil(wait));
  }

  fail(ip: string, username: string): void {
    const t = this.now();
    for (const key of this.keys(ip, username)) this.failures.set(key, [...this.recent(key), t]);
    while (this.failures.size > 10_000) this.failures.delete(this.failures.keys().next().value as string);
  }

  /**
   * A sign-in that turned out right: its attempt no longer counts, and this address's failures for the account
   * are forgotten. The account's failures from elsewhere stay: a guesser keeps its delay.
   */
  succeed(ip: string, username: string): void {
    const [pair, address, account] = this.keys(ip, username);
    this.failures.delete(pair);
    this.failures.get(address)?.pop();
    this.failures.get(account)?.pop();
  }
}
