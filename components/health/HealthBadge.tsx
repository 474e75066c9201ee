"use client";

import { healthTone, pullStateText, UNREPORTED_TITLE, type StreamHealthSnapshot } from "@/lib/stream-health";
import { useNow } from "@/components/hooks/useNow";
import { fpsText, kbpsText, noMediaNow, unreportedText } from "./format";
import { useLiveHealth } from "./useStreamHealth";

export const TONE_TEXT = { ok: "text-risk-pass", warn: "text-risk-review", down: "text-risk-reject", idle: "text-zinc-400" } as const;
export const TONE_DOT = { ok: "bg-risk-pass", warn: "bg-risk-review", down: "bg-risk-reject", idle: "bg-zinc-500" } as const;

/** One line for a wall tile: "15 fps · 620 kbit/s", "retrying 2 of 12", "no media for 8 s". */
export function HealthBadgeView({ snapshot }: { snapshot: StreamHealthSnapshot }) {
  const now = useNow();
  const tone = healthTone(snapshot);
  const noMedia = noMediaNow(snapshot, now);
  const text = unreportedText(snapshot, now) ?? (snapshot.storage && snapshot.pull.state !== "ended" ? "disk full" : null) ?? noMedia ?? (snapshot.pull.state === "connected" ? `${fpsText(snapshot.input.fps)} · ${kbpsText(snapshot.input.kbps)}` : pullStateText(snapshot.pull));
  const title = [snapshot.unreported ? UNREPORTED_TITLE : null, pullStateText(snapshot.pull), snapshot.audio.silent ? "audio silent" : null, snapshot.storage?.message ?? null, snapshot.lastError ? `last error: ${snapshot.lastError.message}` : null].filter(Boolean).join(" · ");
  return (
    <span data-testid="health-badge" data-state={snapshot.pull.state} data-flagged={snapshot.flagged ? "1" : "0"} title={title} className={`inline-flex items-center gap-1 text-[10px] tabular-nums ${TONE_TEXT[tone]}`}>
      <span aria-hidden className={`h-1.5 w-1.5 rounded-full ${TONE_DOT[tone]}`} />
      {text}
      {snapshot.audio.silent && snapshot.pull.state === "connected" && <span className="text-risk-review">· silent</span>}
    </span>
  );
}

/**
 * A stream's health on a wall tile, from `stream:health` in the streams room (the wall is subscribed to it);
 * pass `snapshot` to show one you already hold. Nothing until the first snapshot (at most a few seconds).
 */
export default function HealthBadge({ requestId, snapshot }: { requestId: string; snapshot?: StreamHealthSnapshot | null }) {
  const live = useLiveHealth(requestId);
  const s = snapshot ?? live;
  return s ? <HealthBadgeView snapshot={s} /> : null;
}
