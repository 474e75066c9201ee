/**
 * How many evidence exports may run at once, per account and in all (INCIDENT_EXPORTS_PER_USER,
 * INCIDENT_EXPORTS_MAX): each holds open files and a connection for as long as its client reads, so a slow or
 * hostile reader cannot pile them up. 0 = no limit.
 */
export class ExportSlots {
  private readonly running = new Map<string, number>();
  private total = 0;

  constructor(private readonly opts: { perUser: number; max: number }) {}

  /** A release function (call it once, when the download ends), or why no slot is free. */
  take(user: string): { release: () => void } | { refused: string } {
    const mine = this.running.get(user) ?? 0;
    if (this.opts.perUser > 0 && mine >= this.opts.perUser) return { refused: `you already have ${mine} evidence exports running (at most ${this.opts.perUser} at once); wait for one to finish` };
    if (this.opts.max > 0 && this.total >= this.opts.max) return { refused: `${this.total} evidence exports are running (at most ${this.opts.max} at once); try again shortly` };
    this.running.set(user, mine + 1);
    this.total += 1;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.total -= 1;
        const left = (this.running.get(user) ?? 1) - 1;
        if (left > 0) this.running.set(user, left);
        else this.running.delete(user);
      },
    };
  }

  /** Exports running for `user` (tests, metrics). */
  runningFor(user: string): number {
    return this.running.get(user) ?? 0;
  }
}
