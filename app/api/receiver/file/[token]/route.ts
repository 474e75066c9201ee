import { getRegistry } from "@/server/registry";
import { json, rawText } from "../../../respond";
import { guard } from "@/server/auth/guard";

export const dynamic = "force-dynamic";

/** Callback receiver for video-file results: raw body first, validated by the contract. */
export const POST = guard("/api/receiver/file/[token]", async (req: Request, ctx: { params: Promise<{ token: string }> }) => {
  const { token } = await ctx.params;
  const answer = await getRegistry().dashboard.receiveFileCallback(token, await rawText(req), req.headers);
  return json(answer.body, answer.status);
});
