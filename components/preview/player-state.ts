// What the preview player may claim: live only while the stream runs, and clips "being cut" when REJECT frames have none yet.
import type { FrameMark } from "./marks";

/**
 * Live only while the stream runs: the preview info is fetched rarely once a stream ends, so its last `live: true`
 * must not keep "behind live" and "Go live" on a closed stream.
 */
export function isLivePreview(running: boolean, infoLive: boolean | undefined): boolean {
  return running && (infoLive ?? true);
}

/** What the clip list says when it has no clip: none wanted, or some being cut, or none could be cut. */
export function emptyClipsNote(rejectFrames: number, running: boolean): string {
  if (rejectFrames === 0) return "No REJECT frame yet.";
  const n = `${rejectFrames} REJECT frame${rejectFrames === 1 ? "" : "s"}`;
  return running
    ? `${n}: their clips are being cut (a clip is cut once the seconds after its frame are recorded).`
    : `${n}: their clips are being cut, or the preview did not keep their span.`;
}

export const rejectCount = (marks: readonly FrameMark[]) => marks.filter((m) => m.level === "REJECT").length;
