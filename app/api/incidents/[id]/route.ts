import { IncidentId } from "@/lib/incidents";
import { getRegistry } from "@/server/registry";
import { guard } from "@/server/auth/guard";
import { json } from "../../respond";

export const dynamic = "force-dynamic";

export const GET = guard("/api/incidents/[id]", async (_req: Request, ctx: { params: Promise<{ id: string }> }) => {
  const id = IncidentId.safeParse((await ctx.params).id);
  const incident = id.success ? await getRegistry().incidents.get(id.data) : null;
  if (!incident) return json({ error: "unknown incident" }, 404);
  return json({ incident, context: await getRegistry().incidents.context(incident.id) });
});
