"use client";

import { useRef, useSyncExternalStore } from "react";
import { useMySettings, useMySettingsQuery, useRecordExposure } from "@/components/settings/useMySettings";
import { breakDue } from "@/lib/user-settings";
import type { Incident } from "@/lib/incidents";

const ACK_KEY = (day: string) => `mp.wellness.break-ack.${day}`;
const listeners = new Set<() => void>();

function readAck(day: string): number {
  try {
    return Number(window.localStorage.getItem(ACK_KEY(day)) ?? 0) || 0;
  } catch {
    return 0;
  }
}

function writeAck(day: string, count: number): void {
  try {
    window.localStorage.setItem(ACK_KEY(day), String(count));
  } catch {
    // storage disabled: the reminder hides for this page only
  }
  for (const l of listeners) l();
}

const subscribe = (l: () => void) => (listeners.add(l), () => void listeners.delete(l));

/** Records a REJECT incident as viewed (once per incident per page; the server counts it once per day). */
export function useExposure(): (i: Incident) => void {
  const record = useRecordExposure();
  const seen = useRef(new Set<string>());
  return (i: Incident) => {
    if (i.riskLevel !== "REJECT" || seen.current.has(i.id)) return;
    seen.current.add(i.id);
    record.mutate(i.id);
  };
}

/**
 * Today's exposure (REJECT items viewed) and, at every `breakAfter` of them, a break reminder: in the page's flow
 * above the queue, never over its controls, dismissed until the next multiple.
 */
export default function WellnessBar() {
  const q = useMySettingsQuery();
  const { breakAfter, blur } = useMySettings().wellness;
  const exposure = q.data?.exposure;
  const day = exposure?.day ?? "";
  const ack = useSyncExternalStore(subscribe, () => (day ? readAck(day) : 0), () => 0);
  if (!exposure) return null;
  const due = breakDue(exposure.count, breakAfter, ack);
  return (
    <div className="space-y-2">
      <p className="text-[11px] text-zinc-500">
        <span data-testid="exposure-count" data-count={exposure.count}>{exposure.count}</span> REJECT item{exposure.count === 1 ? "" : "s"} viewed today
        {breakAfter > 0 ? ` · break reminder every ${breakAfter}` : ""} · media {blur ? "blurred until revealed (hover, press or v)" : "shown plainly"} ·{" "}
        <a href="/account#wellness" className="text-sky-300 hover:underline">wellness settings</a>
      </p>
      {due && (
        <div role="status" data-testid="break-reminder" className="flex flex-wrap items-center gap-3 rounded-md border border-amber-500/40 bg-amber-500/10 px-3 py-2 text-xs text-amber-100">
          <span className="min-w-0 flex-1">
            You have viewed {exposure.count} REJECT items today. Step away for a few minutes: look at something far away, stretch, get some water.
          </span>
          <button type="button" data-testid="break-dismiss" onClick={() => writeAck(day, exposure.count)} className="rounded border border-amber-400/50 px-2 py-0.5 text-[11px] hover:bg-amber-400/10">
            Back to work
          </button>
        </div>
      )}
    </div>
  );
}
