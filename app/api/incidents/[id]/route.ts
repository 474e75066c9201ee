import { IncidentId } from "@/lib/incidents";
import { getRegistry } from "@/server/registry";
import { guard } from "@/server/auth/guard";
import { json } from "../../respond";

export const dynamic = "force-dynamic";

export const GET = guard("/api/incidents/[id]", async (_req: Request, ctx: { params: Promise<{ id: string }> }) => {
  const id = IncidentId.safeParse((await ctx.params).id);
  const incident = id.success ? await getRegistry().incidents.get(id.data) : null;
  if (!incident) return json({ error: "unknown incident" }, 404);
  // its review queue and live claim (server/queues), and the history beside it (server/incidents/context.ts)
  // both at the top level and on the incident, so either reading of the API finds them
  const [queue, context] = await Promise.all([getRegistry().queues.info(incident.id), getRegistry().incidents.context(incident.id)]);
  return json({ incident: { ...incident, ...queue, context }, ...queue, context });
});
