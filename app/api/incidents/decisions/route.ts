import { BulkDecisionInput, DECISION_NAMES } from "@/lib/incidents";
import { getRegistry } from "@/server/registry";
import { guard } from "@/server/auth/guard";
import { json } from "../../respond";
import { caller, parseBody } from "../parse";

export const dynamic = "force-dynamic";

export const POST = guard("/api/incidents/decisions", async (req: Request) => {
  const body = await parseBody(req, BulkDecisionInput);
  if (!body.ok) return body.answer;
  const r = await getRegistry().incidents.decideMany(body.data, caller(req));
  const ids = r.updated.map((i) => i.id);
  // incidents other reviewers hold claimed (server/queues) are left to them and named
  const held = r.claimed.length ? `; ${r.claimed.length} claimed by others, left as they are: ${r.claimed.map((c) => `${c.id} (${c.claimedBy})`).join(", ")}` : "";
  return json({ incidents: r.updated, missing: r.missing, claimed: r.claimed, decision: body.data.decision, message: `${DECISION_NAMES[body.data.decision]}: ${ids.length} incident(s) ${ids.join(", ")}${held}` }, ids.length ? 200 : r.claimed.length ? 409 : 404);
});
