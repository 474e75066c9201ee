import type { RuleInput, RulePatch } from "../../lib/rules";
import type { IncidentFeedInput } from "../incidents/feed";
import type { Db } from "../store/db";
import { createBacktests } from "./backtest";
import { createRuleEngine, type RuleEngineDeps } from "./engine";
import { activityOf, createRule, deleteRule, listRules, loadRule, patchRule, toRule } from "./store";

export type RulesOptions = RuleEngineDeps & { db: Db };

/**
 * Rules that act on their own (docs: dashboard → Rules): stored and versioned, evaluated on every accepted callback
 * after its incidents, in shadow mode recorded only, live acted on once per window per source.
 */
export function createRules(o: RulesOptions) {
  const engine = createRuleEngine(o);
  const backtests = createBacktests(o.db);
  return {
    /** the incidents feed's follower: never throws (a rule problem must not fail an accepted callback) */
    feed: (input: IncidentFeedInput) => engine.evaluate(input).catch((err: Error) => o.log(`rules: ${input.requestId}: ${err.stack ?? err}`)),
    resume: () => engine.resume().catch((err: Error) => o.log(`rules: resume: ${err.message}`)),
    list: async () => (await listRules(o.db)).map((r) => toRule(r)),
    get: async (id: string) => {
      const r = await loadRule(o.db, id);
      return r ? toRule(r) : null;
    },
    /** the stored definition with its secrets (backtests of a stored rule) */
    definition: async (id: string) => (await loadRule(o.db, id))?.definition ?? null,
    create: async (input: RuleInput, by: string) => toRule(await createRule(o.db, input, by)),
    patch: async (id: string, patch: RulePatch, by: string) => {
      const r = await patchRule(o.db, id, patch, by);
      return r ? toRule(r) : null;
    },
    remove: (id: string, by: string) => deleteRule(o.db, id, by),
    activity: (id: string, since: Date) => activityOf(o.db, id, since),
    backtests,
  };
}
export type Rules = ReturnType<typeof createRules>;
