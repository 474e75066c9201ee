"use client";

import { Bar, BarChart, CartesianGrid, LabelList, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { MetricBucket } from "@/lib/review-metrics";
import { bucketLabel, bucketTick } from "./format";

export interface Series {
  key: string;
  name: string;
  color: string;
  values: Array<number | null>;
}

const AXIS = { stroke: "#71717a", fontSize: 11 } as const;
const TOOLTIP = { contentStyle: { background: "#18181b", border: "1px solid #3f3f46", fontSize: 12 }, labelStyle: { color: "#e4e4e7" } } as const;
const LEGEND = { wrapperStyle: { fontSize: 11 }, iconSize: 8 } as const;

function rows(buckets: string[], series: Series[]) {
  return buckets.map((b, i) => Object.fromEntries([["at", b], ...series.map((s) => [s.key, s.values[i]])]));
}

/** Counts per bucket, stacked by series (incidents by category and level). */
export function StackedBars({ buckets, bucket, series }: { buckets: string[]; bucket: MetricBucket; series: Series[] }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={rows(buckets, series)} margin={{ top: 4, right: 4, bottom: 0, left: -16 }}>
        <CartesianGrid stroke="#27272a" vertical={false} />
        <XAxis dataKey="at" tickFormatter={(v: string) => bucketTick(v, bucket)} {...AXIS} minTickGap={16} />
        <YAxis allowDecimals={false} {...AXIS} />
        <Tooltip {...TOOLTIP} labelFormatter={(v) => bucketLabel(String(v), bucket)} cursor={{ fill: "#27272a" }} />
        <Legend {...LEGEND} />
        {series.map((s) => (
          <Bar key={s.key} dataKey={s.key} name={s.name} stackId="a" fill={s.color} isAnimationActive={false} />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}

/** Values per bucket as lines (gaps where a bucket has none). */
export function Lines({ buckets, bucket, series, format }: { buckets: string[]; bucket: MetricBucket; series: Series[]; format: (v: number) => string }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <LineChart data={rows(buckets, series)} margin={{ top: 4, right: 8, bottom: 0, left: -8 }}>
        <CartesianGrid stroke="#27272a" vertical={false} />
        <XAxis dataKey="at" tickFormatter={(v: string) => bucketTick(v, bucket)} {...AXIS} minTickGap={16} />
        <YAxis tickFormatter={(v: number) => format(v)} {...AXIS} width={64} />
        <Tooltip {...TOOLTIP} labelFormatter={(v) => bucketLabel(String(v), bucket)} formatter={(v) => (typeof v === "number" ? format(v) : "—")} />
        <Legend {...LEGEND} />
        {series.map((s) => (
          <Line key={s.key} dataKey={s.key} name={s.name} stroke={s.color} dot={{ r: 2 }} strokeWidth={2} connectNulls={false} isAnimationActive={false} type="linear" />
        ))}
      </LineChart>
    </ResponsiveContainer>
  );
}

/** One bar per row (reviewers, categories), stacked by series; `domain` fixes the value axis (e.g. 0–1 for rates); `labels` writes each value at its bar. */
export function RowBars({ rows: data, series, format, domain, labels }: { rows: Array<{ name: string } & Record<string, number | string | null>>; series: Array<Omit<Series, "values">>; format?: (v: number) => string; domain?: [number, number]; labels?: boolean }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={data} layout="vertical" margin={{ top: 4, right: labels ? 44 : 12, bottom: 0, left: 0 }}>
        <CartesianGrid stroke="#27272a" horizontal={false} />
        <XAxis type="number" allowDecimals={false} domain={domain} tickFormatter={format} {...AXIS} />
        <YAxis type="category" dataKey="name" width={96} {...AXIS} />
        <Tooltip {...TOOLTIP} cursor={{ fill: "#27272a" }} formatter={(v) => (typeof v === "number" && format ? format(v) : String(v ?? "—"))} />
        {series.length > 1 && <Legend {...LEGEND} />}
        {series.map((s) => (
          // a judged 0 (e.g. no hit overturned) still shows as a sliver with its label; a null (nothing judged) shows nothing
          <Bar key={s.key} dataKey={s.key} name={s.name} stackId="a" fill={s.color} isAnimationActive={false} minPointSize={labels ? 2 : 0}>
            {labels && <LabelList dataKey={s.key} position="right" fill="#d4d4d8" fontSize={11} formatter={(v) => (typeof v === "number" && format ? format(v) : "—")} />}
          </Bar>
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}
