import { IncidentId } from "@/lib/incidents";
import { getRegistry } from "@/server/registry";
import { guard } from "@/server/auth/guard";
import { json } from "../../respond";

export const dynamic = "force-dynamic";

export const GET = guard("/api/incidents/[id]", async (_req: Request, ctx: { params: Promise<{ id: string }> }) => {
  const id = IncidentId.safeParse((await ctx.params).id);
  const incident = id.success ? await getRegistry().incidents.get(id.data) : null;
  // its review queue and live claim (server/queues)
  return incident ? json({ incident: { ...incident, ...(await getRegistry().queues.info(incident.id)) } }) : json({ error: "unknown incident" }, 404);
});
