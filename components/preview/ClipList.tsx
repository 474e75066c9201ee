"use client";

import type { PreviewClip } from "@/server/preview/info";
import { emptyClipsNote } from "./player-state";

const clock = (iso: string) => new Date(iso).toLocaleTimeString(undefined, { hour12: false });
const mmss = (sec: number) => `${Math.floor(sec / 60)}:${String(Math.floor(sec % 60)).padStart(2, "0")}`;
/** A stream's clip by clock time, a file's by its place in the file. */
const span = (c: PreviewClip) => (c.offsets ? `${mmss(c.offsets.fromSec)}–${mmss(c.offsets.toSec)}` : `${clock(c.startAt)}–${clock(c.endAt)}`);

/** Evidence clips kept for REJECT frames (MP4, stream-copied from the preview or the file), newest first. */
export default function ClipList({ requestId, clips, beforeSec, afterSec, rejectFrames = 0, running = false }: { requestId: string; clips: readonly PreviewClip[]; beforeSec: number; afterSec: number; rejectFrames?: number; running?: boolean }) {
  return (
    <div data-testid="preview-clips" data-count={clips.length} className="space-y-1 text-xs">
      <div className="text-zinc-400">
        Evidence clips ({clips.length}) <span className="text-zinc-600">· {beforeSec} s before to {afterSec} s after each REJECT frame</span>
      </div>
      {clips.length === 0 ? (
        <p data-testid="preview-clips-note" className={rejectFrames > 0 ? "text-risk-review" : "text-zinc-600"}>
          {emptyClipsNote(rejectFrames, running)}
        </p>
      ) : (
        <ul className="max-h-40 space-y-1 overflow-y-auto">
          {[...clips].reverse().map((c) => (
            <li key={c.n} data-testid="preview-clip" data-n={c.n} className="flex flex-wrap items-center gap-x-3 rounded border border-surface-line px-2 py-1">
              <span className="font-mono tabular-nums text-zinc-300">
                {span(c)}
              </span>
              <span className="text-zinc-500">
                {c.durationSec.toFixed(1)} s · frame{c.frames.length === 1 ? "" : "s"} {c.frames.map((f) => f.index).join(", ")}
                {c.partial && " · partial (the preview did not hold the whole span)"}
                {c.offsets && !c.offsets.copied && " · re-encoded (the file's codecs do not fit MP4)"}
              </span>
              <a href={c.url} target="_blank" rel="noreferrer" className="ml-auto text-sky-300 hover:underline">
                play
              </a>
              <a href={c.url} download={`clip-${requestId}-${c.n}.mp4`} className="text-sky-300 hover:underline">
                download
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
