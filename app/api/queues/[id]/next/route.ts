import { NextInput, QueueId } from "@/lib/queues";
import { getRegistry } from "@/server/registry";
import { guard } from "@/server/auth/guard";
import { parseOptionalBody } from "../../../incidents/parse";
import { json } from "../../../respond";
import { who } from "../../caller";

export const dynamic = "force-dynamic";

/**
 * Start reviewing / the next one: `{incident}` claimed for the caller (their current claim in this queue first), or
 * `{incident: null}` when nothing is left. Optional body `{skip: [ids]}`: incidents this page passed over.
 */
export const POST = guard("/api/queues/[id]/next", async (req: Request, ctx: { params: Promise<{ id: string }> }) => {
  const id = QueueId.safeParse((await ctx.params).id);
  const body = await parseOptionalBody(req, NextInput);
  if (!body.ok) return body.answer;
  if (!id.success) return json({ error: "unknown queue" }, 404);
  const r = await getRegistry().queues.next(id.data, who(req), body.data.skip);
  return r.ok ? json({ incident: r.incident }) : json({ error: r.error }, r.status);
});
