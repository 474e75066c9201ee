import { BacktestInput } from "@/lib/rules";
import { getRegistry } from "@/server/registry";
import { guard } from "@/server/auth/guard";
import { json } from "../../respond";
import { caller, parseBody } from "../../incidents/parse";

export const dynamic = "force-dynamic";

/** Starts a backtest; answers with the result when it ends within a few seconds, else with the job to poll (GET …/backtest/<job>). */
export const POST = guard("/api/rules/backtest", async (req: Request) => {
  const body = await parseBody(req, BacktestInput);
  if (!body.ok) return body.answer;
  const rules = getRegistry().rules;
  const rule = typeof body.data.rule === "string" ? await rules.definition(body.data.rule) : body.data.rule;
  if (!rule) return json({ error: "unknown rule" }, 404);
  const since = typeof body.data.since === "string" ? new Date(body.data.since) : typeof body.data.since === "number" ? new Date(body.data.since * 1000) : new Date(Date.now() - (body.data.days ?? 7) * 86_400_000);
  const job = rules.backtests.start(caller(req), rule, since);
  if ("error" in job) return json({ error: job.error }, 409);
  const deadline = Date.now() + 8000;
  while (job.state === "running" && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return json({ job }, job.state === "running" ? 202 : 200);
});
