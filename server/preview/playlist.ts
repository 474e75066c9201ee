/** One MPEG-TS segment of a task's preview: file `s<seq>.ts` in its preview directory. */
export interface PreviewSegment {
  seq: number;
  durationSec: number;
  /** wall clock of its first frame (EXT-X-PROGRAM-DATE-TIME), on the same media clock as the frames' imgTime */
  startMs: number;
  /** the first segment of a new ffmpeg run: timestamps restart (EXT-X-DISCONTINUITY) */
  discontinuity: boolean;
}

export const segmentFile = (seq: number) => `s${seq}.ts`;
export const SEGMENT_FILE = /^s(\d{1,12})\.ts$/;
export const endMs = (s: PreviewSegment) => s.startMs + s.durationSec * 1000;

/**
 * A task's preview as a bounded ring of segments (oldest first), rendered as an HLS media playlist with a
 * program date-time on every segment. The ring is what is kept on disk; trimming it names the files to delete.
 */
export class PreviewRing {
  segments: PreviewSegment[] = [];
  /** discontinuities trimmed off the head (EXT-X-DISCONTINUITY-SEQUENCE) */
  discontinuitySeq = 0;
  /** the stream ended: nothing more comes (EXT-X-ENDLIST) */
  ended = false;
  private firstSeq = 0;

  get nextSeq(): number {
    const last = this.segments.at(-1);
    return last ? last.seq + 1 : this.firstSeq;
  }

  get mediaSeq(): number {
    return this.segments[0]?.seq ?? this.firstSeq;
  }

  push(s: PreviewSegment): void {
    this.segments.push(s);
    this.ended = false;
  }

  /**
   * Drops the oldest segments while the ring holds more than `keepSec` of media, never one that ends after
   * `keepFromMs` (a clip still to be cut needs it). Returns what was dropped.
   */
  trim(keepSec: number, keepFromMs = Infinity): PreviewSegment[] {
    const dropped: PreviewSegment[] = [];
    let total = this.segments.reduce((sum, s) => sum + s.durationSec, 0);
    while (this.segments.length > 1 && total > keepSec && endMs(this.segments[0]) <= keepFromMs) {
      const s = this.segments.shift() as PreviewSegment;
      total -= s.durationSec;
      if (s.discontinuity) this.discontinuitySeq++;
      dropped.push(s);
    }
    this.firstSeq = this.mediaSeq;
    return dropped;
  }

  /** The ring's time span, or null when empty. */
  window(): { startMs: number; endMs: number } | null {
    const first = this.segments[0];
    const last = this.segments.at(-1);
    return first && last ? { startMs: first.startMs, endMs: endMs(last) } : null;
  }

  /**
   * HLS media playlist; `uri` names each segment (a bare file name on disk, a signed link when served).
   * `blockingReload`: a live playlist tells players they may ask for the next segment and wait for it
   * (`_HLS_msn`, LL-HLS blocking playlist reload), so a reload never lags a segment behind.
   */
  render(uri: (s: PreviewSegment) => string = (s) => segmentFile(s.seq), o: { blockingReload?: boolean } = {}): string {
    const target = Math.max(1, ...this.segments.map((s) => Math.ceil(s.durationSec)));
    const lines = ["#EXTM3U", "#EXT-X-VERSION:6", `#EXT-X-TARGETDURATION:${target}`, `#EXT-X-MEDIA-SEQUENCE:${this.mediaSeq}`, `#EXT-X-DISCONTINUITY-SEQUENCE:${this.discontinuitySeq}`, "#EXT-X-INDEPENDENT-SEGMENTS"];
    if (o.blockingReload && !this.ended) lines.push("#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES");
    // a tag stays with its segment even at the head, so DISCONTINUITY-SEQUENCE counts exactly the tags trimmed away
    for (const s of this.segments) {
      if (s.discontinuity) lines.push("#EXT-X-DISCONTINUITY");
      lines.push(`#EXT-X-PROGRAM-DATE-TIME:${new Date(s.startMs).toISOString()}`, `#EXTINF:${s.durationSec.toFixed(3)},`, uri(s));
    }
    if (this.ended) lines.push("#EXT-X-ENDLIST");
    return `${lines.join("\n")}\n`;
  }

  /** Reads back what render() wrote (the copy kept on disk); unknown lines are ignored. */
  static parse(text: string): PreviewRing {
    const ring = new PreviewRing();
    let pending: Partial<PreviewSegment> = {};
    for (const raw of text.split("\n")) {
      const line = raw.trim();
      if (line.startsWith("#EXT-X-MEDIA-SEQUENCE:")) ring.firstSeq = Number(line.slice(22)) || 0;
      else if (line.startsWith("#EXT-X-DISCONTINUITY-SEQUENCE:")) ring.discontinuitySeq = Number(line.slice(30)) || 0;
      else if (line === "#EXT-X-DISCONTINUITY") pending.discontinuity = true;
      else if (line.startsWith("#EXT-X-PROGRAM-DATE-TIME:")) pending.startMs = Date.parse(line.slice(25));
      else if (line.startsWith("#EXTINF:")) pending.durationSec = Number.parseFloat(line.slice(8));
      else if (line === "#EXT-X-ENDLIST") ring.ended = true;
      else if (line && !line.startsWith("#")) {
        const m = SEGMENT_FILE.exec(line.split("?")[0]);
        if (m && Number.isFinite(pending.startMs) && Number.isFinite(pending.durationSec)) {
          ring.segments.push({ seq: Number(m[1]), durationSec: pending.durationSec as number, startMs: pending.startMs as number, discontinuity: pending.discontinuity ?? false });
        }
        pending = {};
      }
    }
    return ring;
  }
}
