import { getRegistry } from "@/server/registry";
import { json } from "../../../respond";
import { guard } from "@/server/auth/guard";

export const dynamic = "force-dynamic";

export const POST = guard("/api/streams/[requestId]/close", async (_req: Request, ctx: { params: Promise<{ requestId: string }> }) => {
  const answer = await getRegistry().dashboard.streams.close((await ctx.params).requestId);
  return answer.ok ? json({ ok: true }) : json({ error: answer.error, code: answer.code }, 422);
});
