import { lastMeaningfulLine } from "./ffmpeg-error";

export type LiveErrorCode = 3001 | 3002 | 3003 | 3004;

/** What one stderr line of a live pull tells: a selected frame's pts, progress, or nothing. */
export interface StderrEvent {
  /** pts_time (s) of a frame that passed select (from showinfo). */
  framePts?: number;
  /** Output time from a progress line (time=…), in s. */
  progressSec?: number;
  /** The first input stream was mapped: the outputs are set up. Not media: a server may send stale headers and nothing else. */
  mapped?: boolean;
  /** One packet ffmpeg read from an input (`-dump`): its stream index, dts (s, null when unknown) and size. */
  packet?: { stream: number; dts: number | null; pts: number | null; size: number; key: boolean };
}

/** ffmpeg `-dump` prints every packet it reads as these lines; they are measurements, never messages. */
const DUMP_LINE = /^(stream #\d+:| {2}(keyframe|duration|dts|size)=.*)$/;
const DUMP_LINES = /(?<=^|[\r\n])(?:stream #\d+:| {2}(?:keyframe|duration|dts|size)=[^\r\n]*)(?:\r\n|\r|\n|$)/g;
const DUMP_STREAM = /^stream #(\d+):$/;
const DUMP_DTS = /^ {2}dts=(N\/A|-?[\d.]+)(?:\s+pts=(N\/A|-?[\d.]+))?/;
const DUMP_SIZE = /^ {2}size=(\d+)/;
const DUMP_KEY = /^ {2}keyframe=1/;

/** `stderr` without the `-dump` packet lines, so errors and classification read only ffmpeg's messages. */
export function withoutPacketDump(stderr: string): string {
  return stderr.replace(DUMP_LINES, "");
}

const SHOWINFO = /Parsed_showinfo_\d+.*?\bn:\s*\d+\s+pts:\s*-?\d+\s+pts_time:(-?[\d.e+-]+)/;
const PROGRESS = /\btime=\s*(-?)(\d+):(\d\d):(\d\d(?:\.\d+)?)/;
const MAPPING = /^\s*Stream #0:\d+(?:\[[^\]]*\])?\s*->\s*#(\d+):\d+/;
const INPUT_STREAM = /^\s*Stream #0:(\d+).*?: (Video|Audio):/;
const DURATION = /^\s*Duration:\s*(?:(\d+):(\d\d):(\d\d(?:\.\d+)?)|N\/A)/;

/** Follows the stderr of one live ffmpeg run, line by line. */
export class LiveStderrParser {
  /** Duration the input declared (> 0 only for finite inputs: HLS with ENDLIST, a file-like FLV); null = unknown. */
  durationSec: number | null = null;
  /** Output indexes a track of input 0 was mapped to. */
  readonly mappedOutputs = new Set<number>();
  /** Track kinds input 0 declared. */
  inputVideo = false;
  inputAudio = false;
  /** Index of input 0's first video track (the one frames are taken from). */
  videoIndex: number | null = null;
  private block: "none" | "input0" | "other" = "none";
  private dumpStream = -1;
  private dumpDts: number | null = null;
  private dumpKey = false;
  private dumpPts: number | null = null;

  line(l: string): StderrEvent {
    if (l.charCodeAt(0) === 32 /* space */ || l.startsWith("stream #")) {
      const packet = this.dumpLine(l);
      if (packet !== undefined) return packet ? { packet } : {};
    }
    const si = SHOWINFO.exec(l);
    if (si) return { framePts: Number(si[1]) };
    const ev: StderrEvent = {};
    const pr = PROGRESS.exec(l);
    if (pr) ev.progressSec = pr[1] ? 0 : Number(pr[2]) * 3600 + Number(pr[3]) * 60 + Number(pr[4]);
    if (/^Input #0\b/.test(l)) this.block = "input0";
    else if (/^(Input #\d+|Output #\d+|Stream mapping:)/.test(l)) this.block = "other";
    const kind = this.block === "input0" ? INPUT_STREAM.exec(l) : null;
    if (kind?.[2] === "Video") {
      this.inputVideo = true;
      this.videoIndex ??= Number(kind[1]);
    }
    if (kind?.[2] === "Audio") this.inputAudio = true;
    const d = this.block === "input0" && this.durationSec === null ? DURATION.exec(l) : null;
    if (d) this.durationSec = d[1] === undefined ? 0 : Number(d[1]) * 3600 + Number(d[2]) * 60 + Number(d[3]);
    const m = MAPPING.exec(l);
    if (m) {
      if (this.mappedOutputs.size === 0) ev.mapped = true;
      this.mappedOutputs.add(Number(m[1]));
    }
    return ev;
  }

  /** undefined: not a dump line; null: part of a packet; else the packet its size line completes. */
  private dumpLine(l: string): StderrEvent["packet"] | null | undefined {
    const st = DUMP_STREAM.exec(l);
    if (st) {
      this.dumpStream = Number(st[1]);
      this.dumpDts = null;
      this.dumpPts = null;
      this.dumpKey = false;
      return null;
    }
    if (DUMP_KEY.test(l)) {
      this.dumpKey = true;
      return null;
    }
    const dts = DUMP_DTS.exec(l);
    if (dts) {
      this.dumpDts = dts[1] === "N/A" ? null : Number(dts[1]);
      this.dumpPts = dts[2] === undefined || dts[2] === "N/A" ? null : Number(dts[2]);
      return null;
    }
    const size = DUMP_SIZE.exec(l);
    if (size && this.dumpStream >= 0) return { stream: this.dumpStream, dts: this.dumpDts, pts: this.dumpPts, size: Number(size[1]), key: this.dumpKey };
    return DUMP_LINE.test(l) ? null : undefined;
  }
}

// Ordered: the first rule matching anywhere in stderr wins, so specific causes come before generic ones.
const RULES: ReadonlyArray<readonly [RegExp, LiveErrorCode | "reached"]> = [
  [/StreamNotFound|Stream not found|NetStream\.Play\.Failed|Play failed/i, 3003],
  [/Stream map '0:a:0' matches no streams/, 3004],
  [/Stream map '0:v:0' matches no streams/, 3002],
  [/Server returned [45]\d\d|HTTP error [45]\d\d|Connection refused|Failed to resolve hostname|Name or service not known|No route to host|Network is unreachable|Connection to tcp:\S+ failed|Cannot open connection|NetConnection\.Connect\.(Rejected|Failed)|Server error/i, 3001],
  [/Invalid data found|could not find codec parameters|Error while decoding|corrupt|not on whitelist|unsupported|no decoder|does not contain any stream|Unknown input format/i, 3002],
  // the server answered (no connect error above) but no media came before the read timeout: no such stream
  [/timed out|Input\/output error|End of file/i, "reached"],
];

/** ffmpeg's note that it folded repeats of the line before it: never a reason of its own. */
const REPEATED = /^\s*Last message repeated \d+ times?\s*$/;

/** The line that shows why a run failed: the last one `evidence` matches, else the last meaningful one (no repeat notes). */
function reasonLine(stderr: string, evidence: RegExp | null): string {
  const lines = stderr.split(/\r\n|\r|\n/).filter((l) => l.trim() && !REPEATED.test(l));
  const matching = evidence ? lines.findLast((l) => evidence.test(l)) : undefined;
  return matching?.trim() || lastMeaningfulLine(lines.join("\n")) || "ffmpeg failed without a message";
}

/**
 * The docs/api.md §4 pull error a failed run's stderr evidences, with the line that shows it. A read timeout or
 * I/O error with no connect/HTTP error before it means the server answered but had no such stream (3003).
 */
export function classifyLiveFailure(stderr: string): { errorCode: LiveErrorCode; message: string } {
  for (const [pattern, code] of RULES) {
    if (pattern.test(stderr)) return { errorCode: code === "reached" ? 3003 : code, message: reasonLine(stderr, pattern) };
  }
  return { errorCode: 3001, message: reasonLine(stderr, null) };
}
