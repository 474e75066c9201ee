import type { RunOutcome } from "./live-run";
import { classifyLiveFailure, withoutPacketDump } from "./live-stderr";
import type { LivePullEnd } from "./live-types";

const STDERR_CLASSIFY_CHARS = 8192;
const NO_VIDEO_OUTPUT = /Output file #0 does not contain any stream/;
const HLS_RELOAD_FAILED = /Failed to reload playlist/;

/** The run failed because the "video" stream has no video, but it has audio: worth a run with audio only. */
export function failedForNoVideoButHasAudio(run: RunOutcome): boolean {
  return run.result.code !== 0 && NO_VIDEO_OUTPUT.test(withoutPacketDump(run.result.stderr)) && run.parser.inputAudio;
}

/** How a pull ended, from its last run (a pull not stopped by its caller). */
export function liveEndOf(run: RunOutcome, pull: { isHls: boolean; bytesIn: number }): LivePullEnd {
  const { parser, stalled } = run;
  const result = { ...run.result, stderr: withoutPacketDump(run.result.stderr) };
  const gotData = run.started || pull.bytesIn > 0;
  const tail = result.stderr.slice(-STDERR_CLASSIFY_CHARS);
  if (result.spawnError) return { reason: "failed", errorCode: 3001, message: `cannot start ffmpeg: ${result.spawnError.message}`, gotData };
  if (stalled) return gotData ? { reason: "ended", gotData, finite: false } : { reason: "failed", ...classifyLiveFailure(tail), gotData };
  if (result.code === 0) {
    // finite: the input declared a duration (VOD-like), or a live HLS playlist ran into its ENDLIST
    // (ffmpeg's HLS reader also stops, with this warning, when reloading the playlist fails)
    const endlist = pull.isHls && !HLS_RELOAD_FAILED.test(tail);
    return { reason: "ended", gotData, finite: (parser.durationSec ?? 0) > 0 || endlist };
  }
  if (NO_VIDEO_OUTPUT.test(result.stderr) && !parser.inputAudio) {
    return { reason: "failed", errorCode: 3002, message: "the stream has neither a video nor an audio track", gotData };
  }
  return { reason: "failed", ...classifyLiveFailure(tail), gotData };
}
