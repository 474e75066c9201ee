"use client";

import Link from "next/link";
import RiskBadge from "@/components/ui/RiskBadge";
import { timelineHref } from "@/lib/alerts";
import type { StreamAlert } from "@/lib/alert-fold";
import { forgetAlert } from "./store";

const ago = (ms: number) => {
  const s = Math.max(0, Math.round((Date.now() - ms) / 1000));
  return s < 60 ? `${s} s ago` : s < 3600 ? `${Math.round(s / 60)} min ago` : `${Math.round(s / 3600)} h ago`;
};

/** The bell's list: every stream alert of this tab, dismissed ones too, newest activity first. */
export default function AlertList({ entries, onNavigate }: { entries: readonly StreamAlert[]; onNavigate: () => void }) {
  if (entries.length === 0) return <p className="text-[11px] text-zinc-500">No live alerts yet.</p>;
  return (
    <ul aria-label="Stream alerts" data-testid="alert-list" className="max-h-72 space-y-1 overflow-y-auto">
      {entries.map((e) => {
        const name = e.source.title ?? e.source.url ?? e.source.ref;
        return (
          <li key={e.key} data-testid="alert-list-item" data-request-id={e.key} data-incidents={e.openCount} data-dismissed={e.dismissed} className={`flex items-center gap-2 rounded px-1.5 py-1 text-[11px] ${e.dismissed ? "opacity-60" : "bg-white/5"}`}>
            <RiskBadge level={e.worst} size="sm" />
            <Link href={timelineHref(e.latest)} onClick={onNavigate} className="min-w-0 flex-1 truncate text-zinc-100 hover:underline" title={`${e.latest.labelName} · ${e.hits} hits`}>
              {name}
            </Link>
            <span className="shrink-0 tabular-nums text-zinc-400">
              {e.openCount} open · {ago(e.activeAt)}
            </span>
            <button type="button" aria-label={`Remove the alert on ${name} from this list`} onClick={() => forgetAlert(e.key)} className="shrink-0 px-1 text-zinc-500 hover:text-zinc-200">
              ×
            </button>
          </li>
        );
      })}
    </ul>
  );
}
