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
  return json({ incidents: r.updated, missing: r.missing, decision: body.data.decision, message: `${DECISION_NAMES[body.data.decision]}: ${ids.length} incident(s) ${ids.join(", ")}` }, ids.length ? 200 : 404);
});
