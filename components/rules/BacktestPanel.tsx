"use client";

import { useEffect, useState } from "react";
import type { RuleInput } from "@/lib/rules";
import { apiJson } from "@/components/api/http";
import ErrorNote from "@/components/ui/ErrorNote";
import { inputCls } from "@/components/ui/form";
import type { BacktestJob } from "@/lib/rules";

/** Runs the rule as drafted over the stored hits of the last N days: what it would have done, beside the reviewers' decisions. */
export default function BacktestPanel({ draft }: { draft: () => RuleInput }) {
  const [days, setDays] = useState(7);
  const [job, setJob] = useState<BacktestJob | null>(null);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    if (job?.state !== "running") return;
    const t = setInterval(() => {
      apiJson<{ job: BacktestJob }>(`/api/rules/backtest/${job.id}`).then((a) => setJob(a.job)).catch(setError);
    }, 1000);
    return () => clearInterval(t);
  }, [job?.id, job?.state]);

  async function run() {
    setError(null);
    try {
      setJob((await apiJson<{ job: BacktestJob }>("/api/rules/backtest", { method: "POST", body: { rule: draft(), days } })).job);
    } catch (err) {
      setError(err);
    }
  }
  const r = job?.result;
  return (
    <section className="border-t border-surface-line p-3 text-sm" aria-label="Backtest">
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-[11px] font-semibold uppercase tracking-wider text-zinc-400">Backtest over the last</span>
        <input aria-label="days" type="number" min={1} max={90} className={`${inputCls} w-20`} value={days} onChange={(e) => setDays(Number(e.target.value) || 7)} />
        <span className="text-zinc-400">days</span>
        <button type="button" className="rounded border border-surface-line px-3 py-1 text-zinc-200 hover:border-sky-500" onClick={() => void run()} disabled={job?.state === "running"}>Run backtest</button>
        {job?.state === "running" && (
          <>
            <span role="status" className="text-zinc-400">{job.progress.hitsRead}{job.progress.of ? ` of ${job.progress.of}` : ""} hits read…</span>
            <button type="button" className="text-zinc-400 underline" onClick={() => void apiJson(`/api/rules/backtest/${job.id}`, { method: "DELETE" }).then(() => setJob({ ...job, state: "cancelled" }))}>Cancel</button>
          </>
        )}
        {job?.state === "cancelled" && <span className="text-zinc-400">cancelled</span>}
      </div>
      {error ? <ErrorNote error={error} /> : null}
      {r && (
        <div className="mt-2" data-testid="backtest-result">
          <p className="text-zinc-200">
            Would have acted on {r.summary.sources} source{r.summary.sources === 1 ? "" : "s"}
            {r.summary.wouldClose ? ` (closing ${r.summary.wouldClose} stream${r.summary.wouldClose === 1 ? "" : "s"})` : ""}: {r.summary.confirmedViolations} later confirmed as violations, {r.summary.cleared} cleared, {r.summary.undecided} undecided.
            {r.truncated ? " Stopped at the backtest's limit of hits." : ""}
          </p>
          <ul className="mt-1 max-h-64 space-y-1 overflow-y-auto text-xs text-zinc-400">
            {r.sources.map((s) => (
              <li key={s.requestId}>
                <a className="text-sky-300 hover:underline" href={s.kind === "stream" ? `/streams/${s.requestId}` : `/review?source=${s.requestId}`}>{s.title ?? s.requestId.slice(0, 12)}</a>{" "}
                · {s.fires}× · confirmed {s.decisions.confirmed}, cleared {s.decisions.cleared}, open {s.decisions.open}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
