"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import { useCan } from "@/components/auth/UserContext";
import ErrorNote from "@/components/ui/ErrorNote";
import { ageText, type Queue } from "@/lib/queues";
import { useQueuesLive, useQueuesQuery } from "./useQueues";

/** Re-renders every `ms` so ages stay true between count updates. */
function useNow(ms: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(t);
  }, [ms]);
  return now;
}

/** The review queues with their live counts (open, claimed, oldest waiting) and Start reviewing on those the caller may work. */
export default function QueuePanel({ working, onStart }: { working: string | null; onStart: (q: Queue) => void }) {
  useQueuesLive();
  const q = useQueuesQuery();
  const manage = useCan("users:manage");
  const canReview = useCan("review:record");
  const now = useNow(15_000);
  const queues = q.data?.queues ?? [];
  return (
    <section aria-label="Review queues" className="rounded-md border border-surface-line bg-surface-raised" data-testid="queue-panel">
      <header className="flex items-center justify-between gap-3 border-b border-surface-line px-3 py-2">
        <h2 className="text-xs font-semibold uppercase tracking-wider text-zinc-400">Queues</h2>
        {manage && (
          <Link href="/review/queues" className="text-[11px] text-sky-300 hover:underline">
            Manage queues
          </Link>
        )}
      </header>
      {q.error ? <ErrorNote error={q.error} /> : null}
      <ul className="grid grid-cols-1 gap-2 p-2 sm:grid-cols-2 xl:grid-cols-4">
        {queues.map((x) => {
          const waiting = x.counts.open - x.counts.claimed;
          return (
            <li key={x.id} data-testid="queue-card" data-queue={x.id} className={`flex items-center gap-2 rounded border px-2.5 py-2 ${working === x.id ? "border-sky-500" : "border-surface-line"}`}>
              <div className="min-w-0 flex-1">
                <div className="truncate text-sm text-zinc-100" title={x.name}>
                  {x.name}
                  <span className="ml-1.5 text-[10px] uppercase tracking-wider text-zinc-500">{x.order === "worst" ? "worst first" : "oldest first"}</span>
                </div>
                <div className="text-[11px] text-zinc-400">
                  <span data-testid="queue-open">{x.counts.open}</span> open · <span data-testid="queue-claimed">{x.counts.claimed}</span> claimed · oldest <span data-testid="queue-oldest">{ageText(x.counts.oldestOpenAt, now)}</span>
                </div>
              </div>
              {canReview && (
                <button
                  onClick={() => onStart(x)}
                  disabled={!x.mayWork || working === x.id}
                  title={x.mayWork ? (waiting > 0 ? `${waiting} waiting` : "nothing waiting right now") : "you may not work this queue"}
                  aria-label={`Start reviewing ${x.name}`}
                  className="shrink-0 rounded bg-sky-600 px-2.5 py-1 text-xs font-medium text-white hover:bg-sky-500 disabled:cursor-not-allowed disabled:opacity-40"
                >
                  Start reviewing
                </button>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
