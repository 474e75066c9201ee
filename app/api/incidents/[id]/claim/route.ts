import { z } from "zod";
import { IncidentId } from "@/lib/incidents";
import { getRegistry } from "@/server/registry";
import { guard } from "@/server/auth/guard";
import { json } from "../../../respond";
import { who } from "../../../queues/caller";
import { parseOptionalBody } from "../../parse";

export const dynamic = "force-dynamic";

const ClaimInput = z.object({ renew: z.boolean().optional() }).strict();

/**
 * Claims the incident for the caller, or renews their claim. `{renew: true}` (the Review page, while it shows the
 * incident): only extends a live claim of the caller's, never takes a released or lapsed one back.
 */
export const POST = guard("/api/incidents/[id]/claim", async (req: Request, ctx: { params: Promise<{ id: string }> }) => {
  const id = IncidentId.safeParse((await ctx.params).id);
  const body = await parseOptionalBody(req, ClaimInput);
  if (!body.ok) return body.answer;
  if (!id.success) return json({ error: "unknown incident" }, 404);
  const r = await getRegistry().queues.claim(id.data, who(req), body.data.renew === true);
  return r.ok ? json({ claimedBy: who(req).username, claimExpiresAt: r.claimExpiresAt }) : json({ error: r.error }, r.status);
});
