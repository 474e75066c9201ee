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
  const r = id.success ? await getRegistry().incidents.decideMany({ ...body.data, ids: [id.data] }, caller(req)) : null;
  // held by another reviewer's claim (server/queues): theirs to decide until it lapses or is released
  const held = r?.claimed[0];
  if (held) return json({ error: `incident ${held.id} is claimed by ${held.claimedBy} until ${held.claimExpiresAt}: they decide it, or a supervisor releases it first`, claimedBy: held.claimedBy, claimExpiresAt: held.claimExpiresAt }, 409);
  const incident = r?.updated[0];
  if (!incident) return json({ error: "unknown incident" }, 404);
  return json({ incident, decision: body.data.decision, message: `${DECISION_NAMES[body.data.decision]}: incident ${incident.id}` });
});
