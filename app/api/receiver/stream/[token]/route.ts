import { getRegistry } from "@/server/registry";
import { json, rawText } from "../../../respond";
import { guard } from "@/server/auth/guard";

export const dynamic = "force-dynamic";

/** Callback receiver for live results (frames, audio segments, stream-end). */
export const POST = guard("/api/receiver/stream/[token]", async (req: Request, ctx: { params: Promise<{ token: string }> }) => {
  const { token } = await ctx.params;
  const answer = await getRegistry().dashboard.streams.receive(token, await rawText(req), req.headers);
  return json(answer.body, answer.status);
});
