import { getRegistry } from "@/server/registry";
import { json } from "../../respond";

export const dynamic = "force-dynamic";

export async function GET(_req: Request, ctx: { params: Promise<{ requestId: string }> }) {
  const detail = await getRegistry().dashboard.streams.detail((await ctx.params).requestId);
  return detail ? json(detail) : json({ error: "unknown stream" }, 404);
}
