import { getRegistry } from "@/server/registry";
import { guard } from "@/server/auth/guard";
import { caller, parseQuery } from "../incidents/parse";

export const dynamic = "force-dynamic";

/** The review queue's filtered list as CSV (same filters as GET /api/incidents). */
export const GET = guard("/api/incidents.csv", async (req: Request) => {
  const q = parseQuery(req);
  if (!q.ok) return q.answer;
  const csv = await getRegistry().incidents.csv(q.data, caller(req), new URL(req.url).origin);
  return new Response(csv, { headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": 'attachment; filename="incidents.csv"', "cache-control": "no-store" } });
});
