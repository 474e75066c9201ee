"use client";

import { useMemo, useState, type KeyboardEvent, type MouseEvent } from "react";
import { riskStyles } from "@/components/ui/risk";
import { bucketize, formatOffset, type TimedItem } from "./timeline-model";

const BUCKETS = 240;

/** An incident's span on the strip, in s since the stream started. */
export interface StripSpan {
  id: string;
  from: number;
  to: number;
  level: "REVIEW" | "REJECT";
  label: string;
}

/**
 * The whole stream on one line: the worst checked level per slice of time, slices where frames went unchecked
 * hatched (never drawn as PASS), incident spans above. A click, or ←/→/Home/End and Enter, jumps the lanes
 * (and the preview) to that moment.
 */
export default function RiskStrip({ items, duration, spans, cursor, onSeek }: { items: readonly TimedItem[]; duration: number; spans: readonly StripSpan[]; cursor: number | null; onSeek: (t: number) => void }) {
  const buckets = useMemo(() => bucketize(items, duration, BUCKETS), [items, duration]);
  const [focus, setFocus] = useState<number | null>(null);
  const span = Math.max(duration, 1);
  const pct = (t: number) => `${Math.min(100, Math.max(0, (t / span) * 100))}%`;

  // a bucket's worst moment (a red slice jumps to its REJECT, not to the PASS frame next to it)
  const seekBucket = (i: number) => {
    const at = Math.min(BUCKETS - 1, Math.max(0, i));
    const b = buckets[at];
    setFocus(at);
    onSeek(b.peakT ?? (b.from + b.to) / 2);
  };
  const onClick = (e: MouseEvent<HTMLDivElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    seekBucket(Math.floor(((e.clientX - box.left) / Math.max(1, box.width)) * BUCKETS));
  };
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const at = focus ?? (cursor === null ? BUCKETS - 1 : Math.floor((cursor / span) * BUCKETS));
    const step = e.shiftKey ? 10 : 1;
    const next = { ArrowLeft: at - step, ArrowRight: at + step, Home: 0, End: BUCKETS - 1, Enter: at } as Record<string, number>;
    if (!(e.key in next)) return;
    e.preventDefault();
    seekBucket(next[e.key]);
  };

  return (
    <div className="space-y-1" data-testid="risk-strip-wrap">
      <div className="flex justify-between text-[10px] tabular-nums text-zinc-500">
        <span>+0:00:00</span>
        <span>whole stream · click or ←/→ to jump · hatched: not checked</span>
        <span>{formatOffset(duration)}</span>
      </div>
      <div
        role="slider"
        tabIndex={0}
        aria-label="Risk over the whole stream"
        aria-valuemin={0}
        aria-valuemax={Math.round(span)}
        aria-valuenow={Math.round(cursor ?? 0)}
        aria-valuetext={cursor === null ? "latest" : formatOffset(cursor)}
        data-testid="risk-strip"
        data-duration={Math.round(span)}
        onClick={onClick}
        onKeyDown={onKey}
        className="relative h-8 cursor-pointer overflow-hidden rounded border border-surface-line bg-surface-sunken focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-400"
      >
        {buckets.map((b, i) =>
          b.items === 0 ? null : (
            <span
              key={i}
              data-testid="risk-bucket"
              data-level={b.worst ?? "NOT_CHECKED"}
              data-from={Math.round(b.from)}
              title={`${formatOffset(b.from)}–${formatOffset(b.to)}: ${b.worst ?? "not checked"}${b.notChecked ? ` · ${b.notChecked} not checked` : ""}`}
              style={{ left: pct(b.from), width: pct(b.to - b.from) }}
              className={`absolute bottom-0 ${b.worst === null ? "top-3 bg-[repeating-linear-gradient(45deg,#52525b_0_2px,transparent_2px_5px)]" : `${riskStyles[b.worst].bar} ${b.worst === "PASS" ? "top-5 opacity-50" : "top-3"}`}`}
            />
          ),
        )}
        {buckets.map((b, i) => (b.notChecked > 0 && b.worst !== null ? <span key={`nc${i}`} style={{ left: pct(b.from), width: pct(b.to - b.from) }} className="absolute bottom-0 h-1 bg-zinc-500" /> : null))}
        {spans.map((s) => (
          <span
            key={s.id}
            data-testid="risk-strip-incident"
            title={`${s.label} · ${formatOffset(s.from)}–${formatOffset(s.to)}`}
            style={{ left: pct(s.from), width: `max(3px, ${pct(s.to - s.from)})` }}
            className={`absolute top-0 h-2 rounded-sm ${riskStyles[s.level].bar}`}
          />
        ))}
        {cursor !== null && <span aria-hidden style={{ left: pct(cursor) }} className="absolute inset-y-0 w-0.5 bg-sky-300" />}
      </div>
    </div>
  );
}
