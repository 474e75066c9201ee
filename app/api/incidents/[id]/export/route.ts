import { IncidentId } from "@/lib/incidents";
import { IDENTITY_HEADERS } from "@/lib/roles";
import { getRegistry } from "@/server/registry";
import { guard } from "@/server/auth/guard";
import { json } from "../../../respond";

export const dynamic = "force-dynamic";

export const GET = guard("/api/incidents/[id]/export", async (req: Request, ctx: { params: Promise<{ id: string }> }) => {
  const id = IncidentId.safeParse((await ctx.params).id);
  if (!id.success) return json({ error: "unknown incident" }, 404);
  // the guard checked this session; its account holds the export slot
  const zip = await getRegistry().incidents.exportZip(id.data, req.headers.get(IDENTITY_HEADERS.id) ?? "");
  if (!zip) return json({ error: "unknown incident" }, 404);
  if ("busy" in zip) {
    const res = json({ error: zip.busy, code: "export_busy" }, 429);
    res.headers.set("retry-after", "10");
    return res;
  }
  return new Response(zip.body, { headers: { "content-type": "application/zip", "content-disposition": `attachment; filename="${zip.filename}"`, "cache-control": "no-store" } });
});
