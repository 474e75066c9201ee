import { DecisionInput, DECISION_NAMES, IncidentId } from "@/lib/incidents";
import { getRegistry } from "@/server/registry";
import { guard } from "@/server/auth/guard";
import { json } from "../../../respond";
import { caller, parseBody } from "../../parse";

export const dynamic = "force-dynamic";

export const POST = guard("/api/incidents/[id]/decision", async (req: Request, ctx: { params: Promise<{ id: string }> }) => {
  const id = IncidentId.safeParse((await ctx.params).id);
  const body = await parseBody(req, DecisionInput);
  if (!body.ok) return body.answer;
  const incident = id.success ? await getRegistry().incidents.decide(id.data, body.data, caller(req)) : null;
  if (!incident) return json({ error: "unknown incident" }, 404);
  return json({ incident, decision: body.data.decision, message: `${DECISION_NAMES[body.data.decision]}: incident ${incident.id}` });
});
