"use client";

import { useState } from "react";
import type { StreamKind } from "@/lib/dashboard-api";
import { healthTone, pullStateText, UNREPORTED_TITLE, type StreamHealthSnapshot } from "@/lib/stream-health";
import { useNow } from "@/components/hooks/useNow";
import { formatAgo } from "@/components/streams/bits";
import { dbText, fpsText, type FrameCounts, kbpsText, levelShare, noMediaNow, unreportedText, untilText } from "./format";
import HealthEvents from "./HealthEvents";
import { TONE_DOT, TONE_TEXT } from "./HealthBadge";
import type { useStreamHealth } from "./useStreamHealth";

function Fact({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div data-testid={testId}>
      <dt className="inline text-zinc-500">{label} </dt>
      <dd className="inline tabular-nums text-zinc-300">{children}</dd>
    </div>
  );
}

function AudioLevel({ s }: { s: StreamHealthSnapshot }) {
  if (!s.audio.pulled) return <span className="text-zinc-500" title="this stream moderates no audio, so its audio is not pulled">not pulled</span>;
  if (s.audio.levelDb === null) return <span className="text-zinc-500">—</span>;
  return (
    <span className="inline-flex items-center gap-1.5" data-silent={s.audio.silent ? "1" : "0"}>
      <span aria-hidden className="inline-block h-1.5 w-16 overflow-hidden rounded bg-zinc-700/60 align-middle">
        <span className={`block h-full ${s.audio.silent ? "bg-risk-review" : "bg-risk-pass"}`} style={{ width: `${Math.round(levelShare(s.audio.levelDb) * 100)}%` }} />
      </span>
      {dbText(s.audio.levelDb)}
      {s.audio.silent && <span className="text-risk-review">silent</span>}
    </span>
  );
}

function PullState({ s, now }: { s: StreamHealthSnapshot; now: number }) {
  const tone = healthTone(s);
  const next = s.pull.state === "retrying" ? untilText(s.pull.nextAttemptAt, now) : "";
  return (
    <span data-testid="health-state" data-state={s.pull.state} className={`inline-flex items-center gap-1.5 font-medium ${TONE_TEXT[tone]}`}>
      <span aria-hidden className={`h-1.5 w-1.5 rounded-full ${TONE_DOT[tone]}`} />
      {pullStateText(s.pull)}
      {next && <span className="font-normal text-zinc-400">· next attempt {next}</span>}
    </span>
  );
}

/** What the pull delivered and what was checked of it: frames for a video stream, segments for an audio stream. */
function Delivered({ s, kind, frames }: { s: StreamHealthSnapshot; kind: StreamKind; frames: FrameCounts }) {
  if (kind === "audio") {
    const g = s.segments;
    return <Fact label="segments" testId="health-delivered">{g.checked} checked · {g.notChecked + g.skipped} not checked of {g.captured}</Fact>;
  }
  return <Fact label="frames" testId="health-delivered">{frames.checked} checked · {frames.notChecked} not checked of {frames.captured}</Fact>;
}

/**
 * The stream page's health strip: pull state, input fps (video)/bitrate, audio level, last media, the no-media
 * flag, the last error, and the stored health events (embedded engine only: nothing for a remote service).
 * `health` is useStreamHealth's answer (the header reads the same one for its state pill).
 */
export default function HealthStrip({ health, kind, frameCounts }: { health: ReturnType<typeof useStreamHealth>; kind: StreamKind; frameCounts?: FrameCounts }) {
  const { report, unavailable } = health;
  const now = useNow();
  const [open, setOpen] = useState(false);
  if (unavailable || !report) return null;
  const s = report.snapshot;
  const noMedia = s ? noMediaNow(s, now) : null;
  const unreported = s ? unreportedText(s, now) : null;
  return (
    <div data-testid="health-strip" className="space-y-1.5 rounded-md border border-surface-line bg-surface-raised px-3 py-1.5 text-[11px]">
      <div className="flex flex-wrap items-center gap-x-5 gap-y-1">
        <span className="text-[10px] uppercase tracking-wider text-zinc-500">health</span>
        {s ? (
          <>
            <PullState s={s} now={now} />
            {s.storage && (
              <span data-testid="health-storage" title={s.storage.message} className="rounded bg-risk-reject/15 px-1.5 py-0.5 font-medium text-risk-reject">
                {s.storage.message}
              </span>
            )}
            {unreported && (
              <span data-testid="health-unreported" title={UNREPORTED_TITLE} className="rounded bg-risk-review/15 px-1.5 py-0.5 font-medium text-risk-review">
                {unreported}
              </span>
            )}
            {noMedia && <span data-testid="health-flag" className="rounded bg-risk-review/15 px-1.5 py-0.5 font-medium text-risk-review">{noMedia}</span>}
            <dl className="flex flex-wrap gap-x-4 gap-y-1">
              <Fact label="input" testId="health-input">{kind === "video" ? `${fpsText(s.input.fps)} · ` : ""}{kbpsText(s.input.kbps)}</Fact>
              <Fact label="audio" testId="health-audio"><AudioLevel s={s} /></Fact>
              <Fact label="last media" testId="health-last-media">{s.lastMediaAt ? (now ? formatAgo(now - Date.parse(s.lastMediaAt)) : "—") : "none yet"}</Fact>
              <Delivered s={s} kind={kind} frames={frameCounts ?? s.frames} />
            </dl>
            {!report.live && <span className="text-zinc-500" title="the process that ran this stream is gone: the figures are those stored with its last health event">stored</span>}
          </>
        ) : (
          <span className="text-zinc-500">no health recorded</span>
        )}
        <button type="button" onClick={() => setOpen((o) => !o)} aria-expanded={open} data-testid="health-events-toggle" className="ml-auto text-sky-300 hover:underline">
          {open ? "hide" : "events"} ({report.events.length})
        </button>
      </div>
      {s?.lastError && (
        <p data-testid="health-last-error" className="truncate text-zinc-400" title={s.lastError.message}>
          last error {now ? formatAgo(now - Date.parse(s.lastError.at)) : ""}: <span className="text-zinc-300">{s.lastError.message}</span>
          {s.lastError.errorCode ? ` (errorCode ${s.lastError.errorCode})` : ""}
        </p>
      )}
      {open && <HealthEvents events={report.events} />}
    </div>
  );
}
