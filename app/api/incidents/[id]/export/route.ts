import { IncidentId } from "@/lib/incidents";
import { getRegistry } from "@/server/registry";
import { guard } from "@/server/auth/guard";
import { json } from "../../../respond";

export const dynamic = "force-dynamic";

export const GET = guard("/api/incidents/[id]/export", async (_req: Request, ctx: { params: Promise<{ id: string }> }) => {
  const id = IncidentId.safeParse((await ctx.params).id);
  const zip = id.success ? await getRegistry().incidents.exportZip(id.data) : null;
  if (!zip) return json({ error: "unknown incident" }, 404);
  return new Response(zip.body, { headers: { "content-type": "application/zip", "content-disposition": `attachment; filename="${zip.filename}"`, "cache-control": "no-store" } });
});
