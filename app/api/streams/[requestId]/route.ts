import { getRegistry } from "@/server/registry";
import { json } from "../../respond";
import { guard } from "@/server/auth/guard";

export const dynamic = "force-dynamic";

/** `?after=<id>` gap fill, `?before=<id>` an older page of a long stream's history, `?limit=` 1–5000 (default 500). */
export const GET = guard("/api/streams/[requestId]", async (req: Request, ctx: { params: Promise<{ requestId: string }> }) => {
  const q = new URL(req.url).searchParams;
  const id = (name: string) => {
    const n = Number(q.get(name));
    return Number.isSafeInteger(n) && n > 0 ? n : undefined;
  };
  const limit = Math.min(5000, id("limit") ?? 500);
  const detail = await getRegistry().dashboard.streams.detail((await ctx.params).requestId, { after: id("after"), before: id("before"), limit });
  return detail ? json(detail) : json({ error: "unknown stream" }, 404);
});
