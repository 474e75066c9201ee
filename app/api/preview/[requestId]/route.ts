import { guard } from "@/server/auth/guard";
import { json } from "../../respond";
import { noPreviewHere, preview } from "../place";

export const dynamic = "force-dynamic";

/** The player's view of a stream's preview: signed playlist link, retained span, evidence clips. */
export const GET = guard("/api/preview/[requestId]", async (_req: Request, ctx: { params: Promise<{ requestId: string }> }) => {
  const p = preview();
  if (!p) return noPreviewHere();
  const info = await p.serve.info(p.place, (await ctx.params).requestId);
  return info ? json(info) : json({ error: "unknown stream" }, 404);
});
