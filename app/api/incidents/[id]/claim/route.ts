import { IncidentId } from "@/lib/incidents";
import { getRegistry } from "@/server/registry";
import { guard } from "@/server/auth/guard";
import { json } from "../../../respond";
import { who } from "../../../queues/caller";

export const dynamic = "force-dynamic";

/** Claims the incident for the caller, or renews their claim (the Review page does this while it shows it). */
export const POST = guard("/api/incidents/[id]/claim", async (req: Request, ctx: { params: Promise<{ id: string }> }) => {
  const id = IncidentId.safeParse((await ctx.params).id);
  if (!id.success) return json({ error: "unknown incident" }, 404);
  const r = await getRegistry().queues.claim(id.data, who(req));
  return r.ok ? json({ claimedBy: who(req).username, claimExpiresAt: r.claimExpiresAt }) : json({ error: r.error }, r.status);
});
