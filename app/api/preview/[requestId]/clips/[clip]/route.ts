import { guard } from "@/server/auth/guard";
import { noPreviewHere, preview } from "../../../place";

export const dynamic = "force-dynamic";

/** An evidence clip (MP4, byte ranges) under a signed link. */
export const GET = guard("/api/preview/[requestId]/clips/[clip]", async (req: Request, ctx: { params: Promise<{ requestId: string; clip: string }> }) => {
  const p = preview();
  if (!p) return noPreviewHere();
  const { requestId, clip } = await ctx.params;
  return p.serve.clip(p.place, requestId, clip, new URL(req.url), req.headers.get("range"));
});
