"use client";

import { useEffect, useMemo, useState } from "react";
import { useUser } from "@/components/auth/UserContext";
import ErrorNote from "@/components/ui/ErrorNote";
import type { LabelSeries, ReviewMetrics } from "@/lib/review-metrics";
import ChartPanel from "./ChartPanel";
import { Lines, RowBars, StackedBars, type Series } from "./charts";
import { bucketLabel, DECISION_COLORS, duration, PALETTE, percent, toLocalInput } from "./format";
import RangeControls, { PRESET_MS, type RangeState } from "./RangeControls";
import { useReviewMetrics } from "./useReviewMetrics";

/** The query string of a range as of `now` (Unix seconds), or null while the custom times are incomplete. */
function queryOf(r: RangeState, now: number): string | null {
  const p = new URLSearchParams();
  if (r.preset === "custom") {
    const from = Date.parse(r.from);
    const to = Date.parse(r.to);
    if (!Number.isFinite(from) || !Number.isFinite(to)) return null;
    p.set("since", String(Math.floor(from / 1000)));
    p.set("until", String(Math.floor(to / 1000)));
  } else {
    p.set("since", String(Math.floor((now - PRESET_MS[r.preset]) / 1000)));
    p.set("until", String(Math.floor(now / 1000)));
  }
  if (r.bucket !== "auto") p.set("bucket", r.bucket);
  return p.toString();
}

const seriesKey = (x: { label: string; level: string }) => `${x.label}-${x.level}`;
/** One colour per category·level on both incident charts, in a stable order (category, then level). */
function colorsOf(m: ReviewMetrics): Map<string, string> {
  const keys = [...new Set([...m.opened, ...m.decided].sort((a, b) => a.label.localeCompare(b.label) || a.level.localeCompare(b.level)).map(seriesKey))];
  return new Map(keys.map((k, i) => [k, PALETTE[i % PALETTE.length]]));
}
const labelSeries = (s: LabelSeries[], colors: Map<string, string>): Series[] => s.map((x) => ({ key: seriesKey(x), name: `${x.labelName} · ${x.level}`, color: colors.get(seriesKey(x)) ?? PALETTE[0], values: x.counts }));
/** Bar-per-row charts grow with their rows (about 32 px each) so names stay readable. */
const rowsHeight = (n: number) => Math.max(224, 60 + 32 * n);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

function labelTable(m: ReviewMetrics, s: LabelSeries[]) {
  return { columns: ["Bucket start", ...s.map((x) => `${x.labelName} · ${x.level}`), "All"], rows: m.range.buckets.map((b, i) => [bucketLabel(b, m.range.bucket), ...s.map((x) => x.counts[i]), sum(s.map((x) => x.counts[i]))]) };
}

function Tile({ label, value, testId }: { label: string; value: string | number; testId: string }) {
  return (
    <div className="rounded-md border border-surface-line bg-surface-raised px-3 py-2">
      <div className="text-[11px] uppercase tracking-wider text-zinc-500">{label}</div>
      <div data-testid={testId} className="text-lg font-semibold tabular-nums text-zinc-100">
        {value}
      </div>
    </div>
  );
}

/** Open incidents and the oldest one's age per review queue, at the end of the range (always visible: the lead's first look). */
function QueueBacklog({ groups }: { groups: ReviewMetrics["backlog"]["groups"] }) {
  return (
    <table className="w-full text-left text-xs tabular-nums" data-testid="backlog-queues">
      <caption className="sr-only">Backlog per queue at the end of the range</caption>
      <thead className="text-zinc-500">
        <tr>
          <th scope="col" className="py-1 pr-3 font-semibold">Queue</th>
          <th scope="col" className="py-1 pr-3 font-semibold">Open</th>
          <th scope="col" className="py-1 pr-3 font-semibold">Oldest open</th>
        </tr>
      </thead>
      <tbody className="text-zinc-200">
        {groups.map((g) => (
          <tr key={g.key} className="border-t border-surface-line/50">
            <th scope="row" className="py-1 pr-3 font-normal">{g.name}</th>
            <td className="py-1 pr-3">{g.open}</td>
            <td className="py-1">{duration(g.oldestOpenAgeSec)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export default function MetricsPage() {
  const user = useUser();
  const [range, setRange] = useState<RangeState>({ preset: "24h", from: "", to: "", bucket: "auto" });
  // the instant presets end at: set after mount (never during the server render) and on Refresh
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => setNow(Date.now()), []);
  const query = now === null ? null : queryOf(range, now);
  const metrics = useReviewMetrics(query);
  const m = metrics.data;
  const onChange = (next: RangeState) => {
    // a custom range starts from the preset shown
    if (next.preset === "custom" && range.preset !== "custom" && now !== null && !next.from) {
      const span = PRESET_MS[range.preset];
      next = { ...next, from: toLocalInput(now - span), to: toLocalInput(now) };
    }
    setRange(next);
  };
  const csv = (series: string) => `/api/metrics/review.csv?${query ?? ""}&series=${series}`;
  const team = m?.scope.kind !== "reviewer";
  const colors = useMemo(() => (m ? colorsOf(m) : new Map<string, string>()), [m]);
  const overall = useMemo(() => {
    const all = m?.overturn.filter((o) => o.level === "ALL") ?? [];
    const judged = sum(all.map((o) => o.judged));
    return judged ? sum(all.map((o) => o.cleared)) / judged : null;
  }, [m]);

  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-lg font-semibold text-zinc-100">{user?.role === "supervisor" ? "Team metrics" : "My review figures"}</h1>
        <p className="text-xs text-zinc-500">
          {user?.role === "supervisor"
            ? "How the review team keeps up: incidents opened and decided, the backlog, time to first decision, decisions per reviewer and how often reviewers overturn the engine."
            : "Your decisions, your time to first decision and how often you cleared the engine's hits, beside the team's intake and backlog."}{" "}
          Buckets are your local time; the CSV is in UTC.
        </p>
      </div>
      <RangeControls value={range} onChange={onChange} onRefresh={() => setNow(Date.now())} busy={metrics.isFetching} />
      {metrics.isError && <ErrorNote prefix="Could not load the metrics:" error={metrics.error} testId="metrics-error" />}
      {!m && metrics.isPending && query !== null && <p className="text-xs text-zinc-500">Loading…</p>}
      {m && (
        <>
          <div className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-6" aria-label="Totals for the range">
            <Tile label="Opened" value={sum(m.opened.map((s) => s.total))} testId="tile-opened" />
            <Tile label={team ? "Decided" : "Decided by me"} value={sum(m.decided.map((s) => s.total))} testId="tile-decided" />
            <Tile label="Open at end" value={m.backlog.open.at(-1) ?? 0} testId="tile-open" />
            <Tile label="Oldest open" value={duration(m.backlog.oldestOpenAgeSec.at(-1))} testId="tile-oldest" />
            <Tile label="First decision p50 / p95" value={`${duration(m.timeToFirstDecision.p50Sec)} / ${duration(m.timeToFirstDecision.p95Sec)}`} testId="tile-ttfd" />
            <Tile label="Overturn rate" value={percent(overall)} testId="tile-overturn" />
          </div>
          <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
            <ChartPanel id="opened" title="Incidents opened" summary={`${sum(m.opened.map((s) => s.total))} incidents opened, per ${m.range.bucket}, by category and level.`} csvHref={csv("opened")} table={labelTable(m, m.opened)}>
              <StackedBars buckets={m.range.buckets} bucket={m.range.bucket} series={labelSeries(m.opened, colors)} />
            </ChartPanel>
            <ChartPanel id="decided" title={team ? "Incidents decided" : "Incidents I decided first"} summary={`${sum(m.decided.map((s) => s.total))} incidents had their first decision, per ${m.range.bucket}, by category and level.`} csvHref={csv("decided")} table={labelTable(m, m.decided)}>
              <StackedBars buckets={m.range.buckets} bucket={m.range.bucket} series={labelSeries(m.decided, colors)} />
            </ChartPanel>
            <ChartPanel
              id="backlog"
              title="Backlog"
              summary={`Undecided incidents at the end of each ${m.range.bucket}, and per queue at the end of the range.`}
              csvHref={csv("backlog")}
              footer={<QueueBacklog groups={m.backlog.groups} />}
              table={{ columns: ["Bucket end", "Open", "Oldest open"], rows: m.range.buckets.map((b, i) => [bucketLabel(m.range.buckets[i + 1] ?? m.range.until, m.range.bucket), m.backlog.open[i], duration(m.backlog.oldestOpenAgeSec[i])]) }}
            >
              <Lines buckets={m.range.buckets.map((b, i) => m.range.buckets[i + 1] ?? m.range.until)} bucket={m.range.bucket} format={(v) => String(v)} series={[{ key: "open", name: "Open incidents", color: PALETTE[0], values: m.backlog.open }]} />
            </ChartPanel>
            <ChartPanel
              id="time-to-decision"
              title="Time to first decision"
              summary={`${m.timeToFirstDecision.count} incidents: p50 ${duration(m.timeToFirstDecision.p50Sec)}, p95 ${duration(m.timeToFirstDecision.p95Sec)} from opened to first decision, per ${m.range.bucket} of the decision.`}
              csvHref={csv("time-to-decision")}
              table={{ columns: ["Bucket start", "Decided", "p50", "p95"], rows: m.range.buckets.map((b, i) => [bucketLabel(b, m.range.bucket), m.timeToFirstDecision.buckets[i].count, duration(m.timeToFirstDecision.buckets[i].p50Sec), duration(m.timeToFirstDecision.buckets[i].p95Sec)]) }}
            >
              <Lines
                buckets={m.range.buckets}
                bucket={m.range.bucket}
                format={duration}
                series={[
                  { key: "p50", name: "p50", color: PALETTE[0], values: m.timeToFirstDecision.buckets.map((b) => b.p50Sec) },
                  { key: "p95", name: "p95", color: PALETTE[1], values: m.timeToFirstDecision.buckets.map((b) => b.p95Sec) },
                ]}
              />
            </ChartPanel>
            <ChartPanel
              id="reviewers"
              height={rowsHeight(m.reviewers.length)}
              title={team ? "Decisions per reviewer" : "My decisions"}
              summary={m.reviewers.length ? m.reviewers.map((r) => `${r.username} ${r.total} (${r.confirmed} confirmed, ${r.cleared} cleared, ${r.escalated} escalated)`).join("; ") + "." : "No decisions in this range."}
              csvHref={csv("reviewers")}
              table={{ columns: ["Reviewer", "Decisions", "Confirmed", "Cleared", "Escalated"], rows: m.reviewers.map((r) => [r.username, r.total, r.confirmed, r.cleared, r.escalated]) }}
            >
              <RowBars
                rows={m.reviewers.map((r) => ({ name: r.username, confirmed: r.confirmed, cleared: r.cleared, escalated: r.escalated }))}
                series={(["confirmed", "cleared", "escalated"] as const).map((k) => ({ key: k, name: k[0].toUpperCase() + k.slice(1), color: DECISION_COLORS[k] }))}
              />
            </ChartPanel>
            <ChartPanel
              id="overturn"
              height={rowsHeight(m.overturn.filter((o) => o.level !== "ALL").length)}
              title="Overturn rate per category"
              summary="Of the engine's REVIEW and REJECT hits that reviewers judged (confirmed or cleared), the share they cleared: high means the engine flags too much in that category. Escalated hits are not judged yet."
              csvHref={csv("overturn")}
              table={{ columns: ["Category", "Level", "Judged hits", "Cleared", "Confirmed", "Escalated", "Overturn rate"], rows: m.overturn.map((o) => [o.labelName, o.level === "ALL" ? "All" : o.level, o.judged, o.cleared, o.confirmed, o.escalated, percent(o.rate)]) }}
            >
              <RowBars
                rows={m.overturn.filter((o) => o.level !== "ALL").map((o) => ({ name: `${o.labelName} · ${o.level}`, rate: o.rate }))}
                series={[{ key: "rate", name: "Overturn rate", color: PALETTE[2] }]}
                format={(v) => percent(v)}
                domain={[0, 1]}
                labels
              />
            </ChartPanel>
          </div>
        </>
      )}
    </div>
  );
}
