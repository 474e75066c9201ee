import { getRegistry } from "@/server/registry";
import { guard } from "@/server/auth/guard";
import { json } from "../../respond";
import { metricsQuery } from "../parse";

export const dynamic = "force-dynamic";

/** One series of the team review metrics as CSV: the query of /api/metrics/review plus series=<name>. */
export const GET = guard("/api/metrics/review.csv", async (req: Request) => {
  const q = metricsQuery(req);
  if (!q.ok) return q.answer;
  const series = q.query.series;
  if (!series) return json({ error: "series: required (opened, decided, backlog, time-to-decision, reviewers or overturn)" }, 400);
  const csv = await getRegistry().reviewMetrics.csv(q.query, series);
  const name = `review-${series}-${new Date(q.query.since).toISOString().slice(0, 13)}h.csv`;
  return new Response(csv, { headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="${name}"`, "cache-control": "no-store" } });
});
