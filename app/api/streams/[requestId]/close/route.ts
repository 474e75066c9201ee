import { getRegistry } from "@/server/registry";
import { json } from "../../../respond";

export const dynamic = "force-dynamic";

export async function POST(_req: Request, ctx: { params: Promise<{ requestId: string }> }) {
  const answer = await getRegistry().dashboard.streams.close((await ctx.params).requestId);
  return answer.ok ? json({ ok: true }) : json({ error: answer.error, code: answer.code }, 422);
}
