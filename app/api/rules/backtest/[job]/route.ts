import { getRegistry } from "@/server/registry";
import { guard } from "@/server/auth/guard";
import { json } from "../../../respond";
import { caller } from "../../../incidents/parse";

export const dynamic = "force-dynamic";
type Ctx = { params: Promise<{ job: string }> };

export const GET = guard("/api/rules/backtest/[job]", async (req: Request, ctx: Ctx) => {
  const job = getRegistry().rules.backtests.get((await ctx.params).job, caller(req));
  return job ? json({ job }) : json({ error: "unknown backtest" }, 404);
});

export const DELETE = guard("/api/rules/backtest/[job]", async (req: Request, ctx: Ctx) => {
  const ok = getRegistry().rules.backtests.cancel((await ctx.params).job, caller(req));
  return ok ? json({ ok: true }) : json({ error: "no running backtest of yours by that id" }, 404);
});
