import { getRegistry } from "@/server/registry";
import { json } from "../../../respond";
import { guard } from "@/server/auth/guard";
import { IDENTITY_HEADERS } from "@/lib/roles";

export const dynamic = "force-dynamic";

export const POST = guard("/api/streams/[requestId]/close", async (req: Request, ctx: { params: Promise<{ requestId: string }> }) => {
  const answer = await getRegistry().dashboard.streams.close((await ctx.params).requestId, req.headers.get(IDENTITY_HEADERS.username) ?? undefined);
  return answer.ok ? json({ ok: true }) : json({ error: answer.error, code: answer.code }, 422);
});
