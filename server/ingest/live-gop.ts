// A keyframe-only live run must fall back to decoding every frame when the source's keyframes come less often
// than the cadence asks for: this watches the gaps between keyframes in the packets ffmpeg reads (`-dump`).

/** Keyframe gaps up to the cadence plus this are accepted (timestamp jitter of a few frames). */
export const GOP_SLACK_SEC = 0.1;

export class GopWatch {
  private lastKey: number | null = null;
  /** Longest keyframe gap seen so far (s). */
  maxGapSec = 0;

  constructor(
    private readonly cadenceSec: number,
    private readonly slackSec = GOP_SLACK_SEC,
  ) {}

  /** One video packet; true once the source has gone longer than the cadence (plus slack) without a keyframe. */
  packet(dts: number | null, key: boolean): boolean {
    if (dts === null) return false;
    if (this.lastKey !== null && dts < this.lastKey) this.lastKey = null; // timestamps went backwards: start over
    const gap = this.lastKey === null ? 0 : dts - this.lastKey;
    if (key) {
      this.maxGapSec = Math.max(this.maxGapSec, gap);
      this.lastKey = dts;
    }
    return gap > this.cadenceSec + this.slackSec;
  }
}
