import { parseMetricsQuery, type MetricsQuery } from "@/lib/review-metrics";
import { can, IDENTITY_HEADERS, isRole } from "@/lib/roles";
import { json } from "../respond";

/**
 * The query of GET /api/metrics/review(.csv) with the caller's scope applied: a supervisor sees the team (or one
 * reviewer with `reviewer=`); anyone else sees only their own decisions. A 400 names the bad field.
 */
export function metricsQuery(req: Request): { ok: true; query: MetricsQuery } | { ok: false; answer: Response } {
  const params = Object.fromEntries(new URL(req.url).searchParams);
  const parsed = parseMetricsQuery(params, Date.now());
  if (!parsed.ok) return { ok: false, answer: json({ error: parsed.error }, 400) };
  const role = req.headers.get(IDENTITY_HEADERS.role);
  const me = req.headers.get(IDENTITY_HEADERS.username) ?? "";
  if (isRole(role) && can(role, "users:manage")) return parsed;
  if (parsed.query.reviewer !== undefined && parsed.query.reviewer !== me) return { ok: false, answer: json({ error: "reviewer: a reviewer sees only their own figures" }, 403) };
  return { ok: true, query: { ...parsed.query, reviewer: me } };
}
