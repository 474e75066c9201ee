import { getRegistry } from "@/server/registry";
import { guard } from "@/server/auth/guard";
import { json } from "../../respond";
import { metricsQuery } from "../parse";

export const dynamic = "force-dynamic";

/** Team review metrics as JSON series (docs: Team metrics): ?since=&until= (ISO or Unix s), bucket=hour|day, reviewer=. */
export const GET = guard("/api/metrics/review", async (req: Request) => {
  const q = metricsQuery(req);
  if (!q.ok) return q.answer;
  return json(await getRegistry().reviewMetrics.get(q.query));
});
