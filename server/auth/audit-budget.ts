/**
 * How many refusals of strangers (requests without a session, throttled sign-ins) the audit log takes: anyone
 * can send those, so one address gets `perAddress` entries a window and all addresses together `overall`; the
 * entry that reaches a limit is written marked as the last one, the rest of that window is only counted.
 * Entries of signed-in users are never limited.
 */
export class AuditBudget {
  private readonly perIp = new Map<string, { since: number; n: number }>();
  private all = { since: 0, n: 0 };

  constructor(private readonly o: { windowMs: number; perAddress: number; overall: number; now?: () => number }) {}

  /**
   * "write", "last" (write it, saying that more from this address — or, at the overall limit, from anyone — are not
   * written this window), "last-overall" or "drop". The map holds at most `overall` addresses: past the overall
   * limit nothing is added.
   */
  take(ip: string): "write" | "last" | "last-overall" | "drop" {
    const now = this.o.now?.() ?? Date.now();
    if (now - this.all.since >= this.o.windowMs) {
      this.all = { since: now, n: 0 };
      this.perIp.clear();
    }
    if (this.all.n >= this.o.overall) return "drop";
    let mine = this.perIp.get(ip);
    if (!mine) this.perIp.set(ip, (mine = { since: now, n: 0 }));
    if (mine.n >= this.o.perAddress) return "drop";
    mine.n++;
    this.all.n++;
    return this.all.n === this.o.overall ? "last-overall" : mine.n === this.o.perAddress ? "last" : "write";
  }
}
