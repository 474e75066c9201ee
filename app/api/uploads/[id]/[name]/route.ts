import { getRegistry } from "@/server/registry";
import { guard } from "@/server/auth/guard";

export const dynamic = "force-dynamic";

/** An uploaded file, for the service that fetches it: the signed expiring link is the credential (no session). */
export const GET = guard("/api/uploads/[id]/[name]", async (req: Request, ctx: { params: Promise<{ id: string; name: string }> }) => {
  const { id, name } = await ctx.params;
  return getRegistry().dashboard.serveUpload(new URL(req.url), id, decodeURIComponent(name));
});
