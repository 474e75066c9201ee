import { guard } from "@/server/auth/guard";
import { noPreviewHere, preview } from "../../place";

export const dynamic = "force-dynamic";

/** The preview playlist (segment links re-signed at every reload) and its segments, under signed links. */
export const GET = guard("/api/preview/[requestId]/[file]", async (req: Request, ctx: { params: Promise<{ requestId: string; file: string }> }) => {
  const p = preview();
  if (!p) return noPreviewHere();
  const { requestId, file } = await ctx.params;
  return p.serve.file(p.place, requestId, file, new URL(req.url));
});
