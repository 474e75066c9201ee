/**
 * Maps a pull's media time to wall-clock time. The offset is the smallest (arrival − media time) seen:
 * media that arrives in a burst at join (a server's GOP cache, HLS segments behind the live edge) is
 * older than its arrival, and the live edge is where arrival and media time line up. Never in the future.
 */
export class LiveClock {
  private offsetMs: number | null = null;

  constructor(private readonly now: () => number = Date.now) {}

  /** Records that media time `mediaSec` has just been received. */
  observe(mediaSec: number): void {
    const offset = this.now() - mediaSec * 1000;
    if (this.offsetMs === null || offset < this.offsetMs) this.offsetMs = offset;
  }

  /** The clock's current time (ms). */
  nowMs(): number {
    return this.now();
  }

  /** Wall-clock time at which media time `mediaSec` was live (capped at now). */
  wallAt(mediaSec: number): Date {
    const now = this.now();
    const at = (this.offsetMs ?? now - mediaSec * 1000) + mediaSec * 1000;
    return new Date(Math.min(now, Math.round(at)));
  }
}
