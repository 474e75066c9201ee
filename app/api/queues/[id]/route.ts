import { QueueId, QueuePatch } from "@/lib/queues";
import { getRegistry } from "@/server/registry";
import { guard } from "@/server/auth/guard";
import { json } from "../../respond";
import { parseBody } from "../../incidents/parse";
import { who } from "../caller";

export const dynamic = "force-dynamic";
type Ctx = { params: Promise<{ id: string }> };

export const GET = guard("/api/queues/[id]", async (req: Request, ctx: Ctx) => {
  const id = QueueId.safeParse((await ctx.params).id);
  const queue = id.success ? await getRegistry().queues.one(id.data, who(req)) : null;
  return queue ? json({ queue }) : json({ error: "unknown queue" }, 404);
});

/** Any of name, rule, order, roles, users, position; open incidents are routed again. */
export const PATCH = guard("/api/queues/[id]", async (req: Request, ctx: Ctx) => {
  const id = QueueId.safeParse((await ctx.params).id);
  const body = await parseBody(req, QueuePatch);
  if (!body.ok) return body.answer;
  if (!id.success) return json({ error: "unknown queue" }, 404);
  const { queues } = getRegistry();
  const r = await queues.update(id.data, body.data);
  if (!r.ok) return json({ error: r.error }, r.status);
  return json({ queue: await queues.one(id.data, who(req)), message: `queue "${r.queue.name}" saved` });
});

/** Its open incidents go where the remaining rules send them; the default queue stays. */
export const DELETE = guard("/api/queues/[id]", async (_req: Request, ctx: Ctx) => {
  const id = QueueId.safeParse((await ctx.params).id);
  if (!id.success) return json({ error: "unknown queue" }, 404);
  const r = await getRegistry().queues.remove(id.data);
  return r.ok ? json({ deleted: id.data, message: `queue "${r.queue.name}" deleted` }) : json({ error: r.error }, r.status);
});
