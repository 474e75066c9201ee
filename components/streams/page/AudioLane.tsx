"use client";

import { useState } from "react";
import { extraDescription, labelName } from "@/components/files/result/frame-info";
import HighlightedText from "@/components/files/result/HighlightedText";
import RiskBadge from "@/components/ui/RiskBadge";
import { riskStyles } from "@/components/ui/risk";
import type { AudioView, FailedView } from "./event-view";
import TrackMatch from "@/components/shared/TrackMatch";

const PAGE = 40;

function AudioEventRow({ seg }: { seg: AudioView }) {
  // vadCode 0 says no voice activity was found (silence, a tone or music): not that the audio was silent
  const noSpeech = seg.vad === 0;
  const risky = seg.level !== "PASS";
  return (
    <li
      data-testid="audio-event"
      data-level={seg.level}
      data-vad={seg.vad ?? ""}
      data-event-id={seg.id}
      className={`grid gap-2 border-l-2 px-3 py-2 md:grid-cols-[11rem_minmax(0,1fr)_16rem] md:items-center ${risky ? riskStyles[seg.level].border : "border-transparent"} ${noSpeech ? "opacity-60" : ""}`}
    >
      <div className="flex flex-wrap items-center gap-2">
        <RiskBadge level={seg.level} size="sm" />
        <span className="font-mono text-[11px] tabular-nums text-zinc-400" title={`received ${seg.at}`}>
          {seg.start ?? "?"}–{seg.end ?? "?"}
        </span>
        {seg.seq !== undefined && <span className="font-mono text-[10px] text-zinc-600">#{seg.seq}</span>}
      </div>
      <div className="min-w-0 text-xs">
        <div className={`font-medium ${risky ? riskStyles[seg.level].text : "text-zinc-400"}`}>
          {labelName(seg.core)}
          {extraDescription(seg.core) && <span className="font-normal text-zinc-500"> · {extraDescription(seg.core)}</span>}
          {noSpeech && <span data-testid="no-speech" title="vadCode 0: no voice activity found (silence, a tone or music)" className="ml-2 rounded bg-zinc-700/40 px-1.5 py-0.5 text-[10px] font-normal uppercase tracking-wider text-zinc-400">no speech</span>}
        </div>
        {seg.transcript !== "" ? (
          <HighlightedText text={seg.transcript} matchedLists={seg.riskDetail?.matchedLists} riskSegments={seg.riskDetail?.riskSegments} className="text-zinc-300" testId="audio-text" />
        ) : (
          <p className="text-zinc-600">{noSpeech ? "no transcript: no voice activity" : "no transcript"}</p>
        )}
        <TrackMatch detail={seg.riskDetail} />
        {seg.context !== undefined && <p className="mt-0.5 text-[11px] text-zinc-500" title="previous + current segment">with context: {seg.context}</p>}
      </div>
      {seg.audioUrl ? <audio controls preload="none" src={seg.audioUrl} className="h-8 w-full" /> : <span className="text-[11px] text-zinc-600">no audio clip</span>}
    </li>
  );
}

/** Audio segments newest first; those without voice activity (vadCode 0) are muted. */
export default function AudioLane({ segments }: { segments: Array<AudioView | FailedView> }) {
  const [limit, setLimit] = useState(PAGE);
  if (segments.length === 0) return <p className="p-3 text-center text-xs text-zinc-500">No audio segments yet (one arrives per 10 s of audio).</p>;
  const shown = segments.slice(0, limit);
  return (
    <div data-testid="audio-lane">
      <ul className="divide-y divide-surface-line">
        {shown.map((s) =>
          s.kind === "audio" ? (
            <AudioEventRow key={s.id} seg={s} />
          ) : (
            <li key={s.id} data-testid="audio-failed" data-code={s.code ?? ""} className="px-3 py-2 text-xs text-red-200">
              <span className="font-mono">code {s.code ?? "?"}</span> · {s.message} <span className="text-zinc-500">{s.at}</span>
            </li>
          ),
        )}
      </ul>
      {segments.length > shown.length && (
        <button type="button" onClick={() => setLimit((n) => n + PAGE)} className="w-full border-t border-surface-line py-1.5 text-xs text-zinc-400 hover:text-zinc-200">
          Show {Math.min(PAGE, segments.length - shown.length)} older of {segments.length - shown.length}
        </button>
      )}
    </div>
  );
}
