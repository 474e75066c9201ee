import { z } from "zod";
import { getRegistry } from "@/server/registry";
import { guard } from "@/server/auth/guard";
import { badRequest, json } from "../../../respond";

export const dynamic = "force-dynamic";

/** since: ISO time or Unix s; default the last 24 h */
const Since = z.union([z.iso.datetime({ offset: true }).transform((s) => new Date(s)), z.coerce.number().int().min(0).transform((n) => new Date(n * 1000))]);

export const GET = guard("/api/rules/[id]/activity", async (req: Request, ctx: { params: Promise<{ id: string }> }) => {
  const id = (await ctx.params).id;
  const raw = new URL(req.url).searchParams.get("since");
  const since = raw === null ? { success: true as const, data: new Date(Date.now() - 24 * 3600_000) } : Since.safeParse(raw);
  if (!since.success) return badRequest("since: an ISO time or Unix seconds");
  const rules = getRegistry().rules;
  if (!/^[0-9a-f]{16}$/.test(id) || !(await rules.get(id))) return json({ error: "unknown rule" }, 404);
  const entries = await rules.activity(id, since.data);
  return json({ entries });
});
