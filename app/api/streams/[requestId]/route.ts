import { getRegistry } from "@/server/registry";
import { json } from "../../respond";
import { guard } from "@/server/auth/guard";

export const dynamic = "force-dynamic";

export const GET = guard("/api/streams/[requestId]", async (req: Request, ctx: { params: Promise<{ requestId: string }> }) => {
  const after = Number(new URL(req.url).searchParams.get("after"));
  const detail = await getRegistry().dashboard.streams.detail((await ctx.params).requestId, Number.isSafeInteger(after) && after > 0 ? after : undefined);
  return detail ? json(detail) : json({ error: "unknown stream" }, 404);
});
