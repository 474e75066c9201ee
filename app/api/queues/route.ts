import { QueueInput } from "@/lib/queues";
import { getRegistry } from "@/server/registry";
import { guard } from "@/server/auth/guard";
import { json } from "../respond";
import { parseBody } from "../incidents/parse";
import { who } from "./caller";

export const dynamic = "force-dynamic";

/** Every queue in routing order with its counts and whether the caller may work it. */
export const GET = guard("/api/queues", async (req: Request) => json({ queues: await getRegistry().queues.list(who(req)) }));

/** A supervisor creates a queue: `{name, rule, order, roles?, users?, position?}`; open incidents are routed again. */
export const POST = guard("/api/queues", async (req: Request) => {
  const body = await parseBody(req, QueueInput);
  if (!body.ok) return body.answer;
  const { queues } = getRegistry();
  const r = await queues.create(body.data, who(req).username);
  if (!r.ok) return json({ error: r.error }, r.status);
  return json({ queue: await queues.one(r.queue.id, who(req)), message: `queue "${r.queue.name}" created` }, 201);
});
