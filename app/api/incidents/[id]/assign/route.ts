import { AssignInput, IncidentId } from "@/lib/incidents";
import { getRegistry } from "@/server/registry";
import { guard } from "@/server/auth/guard";
import { json } from "../../../respond";
import { caller, parseBody } from "../../parse";

export const dynamic = "force-dynamic";

export const POST = guard("/api/incidents/[id]/assign", async (req: Request, ctx: { params: Promise<{ id: string }> }) => {
  const id = IncidentId.safeParse((await ctx.params).id);
  const body = await parseBody(req, AssignInput);
  if (!body.ok) return body.answer;
  if (!id.success) return json({ error: "unknown incident" }, 404);
  const r = await getRegistry().incidents.assign(id.data, body.data, caller(req));
  return r.ok ? json({ incident: r.incident, message: `incident ${r.incident.id} assigned to ${r.incident.assignee ?? "nobody"}` }) : json({ error: r.error }, r.status);
});
