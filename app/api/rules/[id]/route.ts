import { RulePatch } from "@/lib/rules";
import { getRegistry } from "@/server/registry";
import { guard } from "@/server/auth/guard";
import { json } from "../../respond";
import { caller, parseBody } from "../../incidents/parse";

export const dynamic = "force-dynamic";
type Ctx = { params: Promise<{ id: string }> };
const RULE_ID = /^[0-9a-f]{16}$/;
const unknown = () => json({ error: "unknown rule" }, 404);

export const GET = guard("/api/rules/[id]", async (_req: Request, ctx: Ctx) => {
  const id = (await ctx.params).id;
  const rule = RULE_ID.test(id) ? await getRegistry().rules.get(id) : null;
  return rule ? json({ rule }) : unknown();
});

export const PATCH = guard("/api/rules/[id]", async (req: Request, ctx: Ctx) => {
  const id = (await ctx.params).id;
  const body = await parseBody(req, RulePatch);
  if (!body.ok) return body.answer;
  const rule = RULE_ID.test(id) ? await getRegistry().rules.patch(id, body.data, caller(req)) : null;
  return rule ? json({ rule }) : unknown();
});

export const DELETE = guard("/api/rules/[id]", async (req: Request, ctx: Ctx) => {
  const id = (await ctx.params).id;
  return RULE_ID.test(id) && (await getRegistry().rules.remove(id, caller(req))) ? json({ ok: true }) : unknown();
});
