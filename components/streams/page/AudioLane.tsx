"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import { extraDescription, labelName } from "@/components/files/result/frame-info";
import HighlightedText from "@/components/files/result/HighlightedText";
import RiskBadge from "@/components/ui/RiskBadge";
import { riskStyles } from "@/components/ui/risk";
import type { AudioView, FailedView } from "./event-view";
import TrackMatch from "@/components/shared/TrackMatch";
import type { SeekRequest } from "./FrameLane";
import { audioRows, formatOffset, nearestIndex, type AudioRow } from "./timeline-model";
import { SafeAudio } from "@/components/wellness/SafeMedia";

function AudioEventRow({ seg, focused }: { seg: AudioView; focused: boolean }) {
  // vadCode 0 says no voice activity was found (silence, a tone or music): not that the audio was silent
  const noSpeech = seg.vad === 0;
  const level = seg.level;
  const risky = level !== null && level !== "PASS";
  return (
    <div
      data-testid="audio-event"
      data-level={level ?? "NOT_CHECKED"}
      data-checked={String(seg.checked)}
      data-vad={seg.vad ?? ""}
      data-event-id={seg.id}
      data-focused={focused || undefined}
      className={`grid gap-2 border-l-2 px-3 py-2 md:grid-cols-[11rem_minmax(0,1fr)_16rem] md:items-center ${risky ? riskStyles[level].border : "border-transparent"} ${noSpeech ? "opacity-60" : ""} ${focused ? "bg-sky-950/40" : ""}`}
    >
      <div className="flex flex-wrap items-center gap-2">
        {level ? (
          <RiskBadge level={level} size="sm" />
        ) : (
          <span data-testid="segment-not-checked" title="not checked: the stream ended first, detection fell behind, or no type asked for has a detector here" className="rounded bg-zinc-700 px-1.5 py-0.5 text-[10px] font-bold tracking-wide text-zinc-200">
            NOT CHECKED
          </span>
        )}
        <span data-testid="audio-when" className="font-mono text-[11px] tabular-nums text-zinc-400" title={`stream offset · clock time (received ${seg.at})`}>
          {formatOffset(seg.t)} · {seg.start ?? "?"}–{seg.end ?? "?"}
        </span>
        {seg.seq !== undefined && <span className="font-mono text-[10px] text-zinc-600">#{seg.seq}</span>}
      </div>
      <div className="min-w-0 text-xs">
        <div className={`font-medium ${risky ? riskStyles[level].text : "text-zinc-400"}`}>
          {seg.checked ? labelName(seg.core) : "not checked"}
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
      {seg.audioUrl ? <SafeAudio preload="none" src={seg.audioUrl} className="h-8 w-full" /> : <span className="text-[11px] text-zinc-600">no audio clip</span>}
    </div>
  );
}

/** Consecutive PASS segments shown as one row; a click lists them. */
function RunRow({ row, onToggle }: { row: Extract<AudioRow, { kind: "run" | "fold" }>; onToggle: () => void }) {
  const count = row.kind === "run" ? row.segments.length : row.count;
  const span = row.kind === "run" ? `${formatOffset(row.segments[row.segments.length - 1].t)}–${formatOffset(row.segments[0].t + 10)} · ${row.segments[row.segments.length - 1].start ?? "?"}–${row.segments[0].end ?? "?"}` : "";
  return (
    <button
      type="button"
      data-testid={row.kind === "run" ? "audio-run" : "audio-run-fold"}
      data-count={count}
      aria-expanded={row.kind === "fold"}
      onClick={onToggle}
      className="flex w-full items-center gap-2 px-3 py-1.5 text-left text-[11px] text-zinc-500 hover:bg-surface-raised hover:text-zinc-300"
    >
      <span className="rounded bg-risk-pass/15 px-1.5 py-0.5 font-semibold text-risk-pass">PASS</span>
      <span>
        {count} segments {row.noSpeech ? "with no speech" : "passed"}
        {span && <span className="font-mono tabular-nums"> · {span}</span>}
      </span>
      <span className="ml-auto">{row.kind === "run" ? "show ▾" : "fold ▴"}</span>
    </button>
  );
}

/**
 * Audio segments newest first, virtualised (a 3-hour stream has 1,080): consecutive PASS segments fold into one
 * row, those without voice activity (vadCode 0) are muted, risky ones always stand alone.
 */
export default function AudioLane({ segments, seek = null }: { segments: Array<AudioView | FailedView>; seek?: SeekRequest | null }) {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const rows = useMemo(() => audioRows(segments, expanded), [segments, expanded]);
  const scroller = useRef<HTMLDivElement | null>(null);
  const virtual = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => 56, overscan: 6, getItemKey: (i) => rowKey(rows[i]) });
  const [focusedId, setFocusedId] = useState<number | null>(null);
  const toggle = (key: string) => setExpanded((e) => (e.has(key) ? new Set([...e].filter((k) => k !== key)) : new Set([...e, key])));

  useEffect(() => {
    if (seek === null) return;
    const i = nearestIndex(segments, seek.t, (s) => (s.kind === "audio" ? s.t : undefined));
    const seg = segments[i];
    if (!seg || seg.kind !== "audio") return;
    const run = rows.find((r) => r.kind === "run" && r.segments.some((x) => x.id === seg.id));
    if (run && run.kind === "run") setExpanded((e) => new Set([...e, run.key]));
    setFocusedId(seg.id);
    // only a new jump moves the lane, not new segments arriving
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [seek]);
  useEffect(() => {
    if (focusedId === null) return;
    const at = rows.findIndex((r) => r.kind === "item" && r.item.id === focusedId);
    if (at >= 0) virtual.scrollToIndex(at, { align: "center" });
    // once per focus change, after the run holding it is unfolded
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focusedId, expanded]);

  if (segments.length === 0) return <p className="p-3 text-center text-xs text-zinc-500">No audio segments yet (one arrives per 10 s of audio).</p>;
  return (
    <div data-testid="audio-lane" data-rows={rows.length}>
      <div ref={scroller} data-testid="audio-scroller" className="max-h-[32rem] overflow-y-auto">
        <div role="list" className="relative w-full" style={{ height: virtual.getTotalSize() }}>
          {virtual.getVirtualItems().map((v) => {
            const row = rows[v.index];
            return (
              <div key={v.key} role="listitem" data-index={v.index} ref={virtual.measureElement} className="absolute left-0 top-0 w-full border-b border-surface-line" style={{ transform: `translateY(${v.start}px)` }}>
                {row.kind === "item" ? (
                  row.item.kind === "audio" ? (
                    <AudioEventRow seg={row.item} focused={row.item.id === focusedId} />
                  ) : (
                    <div data-testid="audio-failed" data-code={row.item.code ?? ""} className="px-3 py-2 text-xs text-red-200">
                      <span className="font-mono">code {row.item.code ?? "?"}</span> · {row.item.message} <span className="text-zinc-500">{row.item.at}</span>
                    </div>
                  )
                ) : (
                  <RunRow row={row} onToggle={() => toggle(row.key)} />
                )}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

function rowKey(row: AudioRow): string {
  return row.kind === "item" ? `i${row.item.id}` : `${row.kind}-${row.key}`;
}
