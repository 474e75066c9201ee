import { IncidentId } from "@/lib/incidents";
import { getRegistry } from "@/server/registry";
import { guard } from "@/server/auth/guard";
import { json } from "../../../respond";
import { who } from "../../../queues/caller";

export const dynamic = "force-dynamic";

/** Skip: the caller's claim goes back to its queue (a supervisor may release anyone's). */
export const POST = guard("/api/incidents/[id]/release", async (req: Request, ctx: { params: Promise<{ id: string }> }) => {
  const id = IncidentId.safeParse((await ctx.params).id);
  if (!id.success) return json({ error: "unknown incident" }, 404);
  const r = await getRegistry().queues.release(id.data, who(req));
  if (!r.ok) return json({ error: r.error }, r.status);
  return json({ released: r.released, claimedBy: r.claimedBy, message: r.released ? `incident ${id.data} released to its queue` : `incident ${id.data} was not claimed` });
});
