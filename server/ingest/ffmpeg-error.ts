export type FfmpegErrorKind =
  | "not-found"
  | "forbidden"
  | "refused"
  | "invalid-data"
  | "timeout"
  | "no-stream"
  | "killed"
  | "failed";

export class FfmpegError extends Error {
  readonly kind: FfmpegErrorKind;
  /** Last lines of stderr (≤ 2 KB) for logs and diagnostics. */
  readonly stderrTail: string;
  constructor(kind: FfmpegErrorKind, message: string, stderrTail = "", options?: { cause?: unknown }) {
    super(message, options);
    this.name = "FfmpegError";
    this.kind = kind;
    this.stderrTail = stderrTail;
  }
}

const TAIL_CHARS = 2048;

export function stderrTail(stderr: string): string {
  const trimmed = stderr.trimEnd();
  return trimmed.length <= TAIL_CHARS ? trimmed : trimmed.slice(trimmed.length - TAIL_CHARS);
}

// Ordered: the first matching rule wins, so specific network failures come before generic ones.
const RULES: ReadonlyArray<readonly [RegExp, FfmpegErrorKind]> = [
  [/Server returned 404|HTTP error 404|No such file or directory|Failed to resolve hostname|Name or service not known/i, "not-found"],
  [/Server returned 403|HTTP error 403|Server returned 401|HTTP error 401|not on whitelist|Permission denied/i, "forbidden"],
  [/Connection refused/i, "refused"],
  [/Connection timed out|Operation timed out|timed out/i, "timeout"],
  [/Invalid data found|moov atom not found|could not find codec parameters|Error while decoding|corrupt/i, "invalid-data"],
  [/matches no streams|does not contain any stream|Output file is empty|no video stream|no audio stream/i, "no-stream"],
];

/** Maps ffmpeg/ffprobe stderr to the most specific error kind it evidences. */
export function classifyStderr(stderr: string): FfmpegErrorKind {
  for (const [pattern, kind] of RULES) if (pattern.test(stderr)) return kind;
  return "failed";
}

/** The most informative single line of stderr, for error messages. */
export function lastMeaningfulLine(stderr: string): string {
  const lines = stderr.split(/\r\n|\r|\n/).map((l) => l.trim()).filter(Boolean);
  for (let i = lines.length - 1; i >= 0; i--) {
    const l = lines[i];
    if (!/^(frame=|size=|video:|Press \[q\]|To ignore this)/.test(l)) return l;
  }
  return "";
}
