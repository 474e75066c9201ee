import { LIST_KINDS, type ListKind } from "@/lib/dashboard-api";
import { getRegistry } from "@/server/registry";
import { badRequest, json } from "../../respond";
import { guard } from "@/server/auth/guard";

export const dynamic = "force-dynamic";

const MAX_UPLOAD = 50 * 1024 * 1024;

function target(kind: string) {
  const engine = getRegistry().engine;
  if (!engine) return { error: json({ error: "reference lists belong to the embedded service" }, 409) };
  if (!LIST_KINDS.includes(kind as ListKind)) return { error: badRequest(`unknown list kind ${kind}`) };
  return { lists: engine.lists, kind: kind as ListKind };
}

/** Adds an uploaded photo / image / audio file (multipart: list, entry, file) to a reference list. */
export const POST = guard("/api/lists/[kind]", async (req: Request, ctx: { params: Promise<{ kind: string }> }) => {
  const t = target((await ctx.params).kind);
  if (t.error) return t.error;
  const form = await req.formData().catch(() => null);
  const file = form?.get("file");
  if (!form || !(file instanceof File)) return badRequest("multipart form with list, entry and file is required");
  if (file.size > MAX_UPLOAD) return badRequest(`file larger than ${MAX_UPLOAD} bytes`);
  try {
    const message = await t.lists.add(t.kind, String(form.get("list") ?? ""), String(form.get("entry") ?? ""), { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) });
    return json({ ok: true, message });
  } catch (err) {
    return json({ error: (err as Error).message }, 422);
  }
});

export const DELETE = guard("/api/lists/[kind]", async (req: Request, ctx: { params: Promise<{ kind: string }> }) => {
  const t = target((await ctx.params).kind);
  if (t.error) return t.error;
  const q = new URL(req.url).searchParams;
  try {
    await t.lists.remove(t.kind, q.get("list") ?? "", q.get("entry") ?? "");
  } catch (err) {
    return badRequest((err as Error).message); // an unknown list name: the stores validate before touching anything
  }
  return json({ ok: true });
});
