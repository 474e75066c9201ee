// A keyframe-only live run must fall back to decoding every frame when the source's keyframes come less often
// than the cadence asks for, or when it reorders frames (B-frames): the H.264 decoder then holds each decoded
// picture until as many later ones as the reorder depth were decoded, i.e. whole GOPs when only keyframes are
// (measured: a 2 s GOP with B-frames delivered each keyframe ≈ 4 s late). This watches the packets ffmpeg reads (`-dump`).

/** Keyframe gaps up to the cadence plus this are accepted (timestamp jitter of a few frames). */
export const GOP_SLACK_SEC = 0.1;

export class GopWatch {
  private lastKey: number | null = null;
  private maxPts = -Infinity;
  /** Longest keyframe gap seen so far (s). */
  maxGapSec = 0;

  constructor(
    private readonly cadenceSec: number,
    private readonly slackSec = GOP_SLACK_SEC,
  ) {}

  /** "gop": the source went longer than the cadence (plus slack) without a keyframe; "reorder": it has B-frames. */
  reason: "gop" | "reorder" | null = null;

  /** One video packet; true once keyframe-only decoding no longer fits the source (see reason). */
  packet(dts: number | null, key: boolean, pts: number | null = null): boolean {
    if (pts !== null) {
      // a packet presented before one read earlier: frames are reordered (after a reset, pts start over with a keyframe)
      if (key && pts < this.maxPts - 1) this.maxPts = -Infinity;
      if (pts < this.maxPts) {
        this.reason = "reorder";
        return true;
      }
      this.maxPts = pts;
    }
    if (dts === null) return false;
    if (this.lastKey !== null && dts < this.lastKey) this.lastKey = null; // timestamps went backwards: start over
    const gap = this.lastKey === null ? 0 : dts - this.lastKey;
    if (key) {
      this.maxGapSec = Math.max(this.maxGapSec, gap);
      this.lastKey = dts;
    }
    if (gap <= this.cadenceSec + this.slackSec) return false;
    this.reason = "gop";
    return true;
  }
}
