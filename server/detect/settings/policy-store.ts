// Operator side of the run-time thresholds: the effective table (defaults + overrides), validated updates, reset.
import { z } from "zod";
import { describeZodError } from "../../../lib/contract/errors";
import type { KeywordList } from "../lists/model";
import { InputError } from "../lists/store";
import { docWriter } from "./doc";
import { overridesOf, ruleSpecs, thresholdOverridesShape, Thresholds, type RuleSpec, type Threshold, type ThresholdOverrides } from "./thresholds";

export interface PolicyRow extends RuleSpec {
  effective: Threshold;
  overridden: boolean;
}

const updateInput = z.object({ rules: thresholdOverridesShape }).strict();

/** Checks keys, ranges and order against the table; returns the merged overrides. */
function validate(specs: readonly RuleSpec[], current: ThresholdOverrides, changes: ThresholdOverrides): ThresholdOverrides {
  const next: ThresholdOverrides = { ...current };
  for (const [key, change] of Object.entries(changes)) {
    const spec = specs.find((s) => s.key === key);
    if (!spec) throw new InputError(`rules.${key}: unknown rule (one of ${specs.map((s) => s.key).join(", ")})`);
    const [lo, hi] = spec.range;
    for (const f of ["review", "reject"] as const) {
      const v = change[f];
      if (typeof v === "number" && (v < lo || v > hi)) throw new InputError(`rules.${key}.${f}: must be between ${lo} and ${hi}`);
    }
    const merged = { ...spec.defaults, ...next[key], ...change };
    if (merged.review !== null && merged.reject !== null && (spec.direction === "atLeast" ? merged.reject < merged.review : merged.reject > merged.review)) {
      throw new InputError(`rules.${key}: reject (${merged.reject}) must be ${spec.direction === "atLeast" ? "≥" : "≤"} review (${merged.review}): REJECT is the stricter band`);
    }
    next[key] = { ...next[key], ...change };
  }
  return next;
}

/** Thresholds stored in `dir`; `lists` gives the current keyword lists (one rule each). */
export function filePolicy(dir: string, lists: () => Promise<readonly KeywordList[]>) {
  const doc = docWriter(dir);
  const table = async (overrides: ThresholdOverrides): Promise<PolicyRow[]> => {
    const th = new Thresholds(overrides);
    return ruleSpecs(await lists()).map((s) => {
      const { review, reject, enabled } = th.rule(s.key);
      return { ...s, effective: { review, reject, enabled }, overridden: Object.prototype.hasOwnProperty.call(overrides, s.key) };
    });
  };
  const write = async (fn: (current: ThresholdOverrides, specs: RuleSpec[]) => ThresholdOverrides) => {
    const specs = ruleSpecs(await lists());
    const overrides = await doc.update((current) => {
      const next = fn(overridesOf(current), specs);
      return { next: { overrides: next }, result: next };
    });
    return { rules: await table(overrides) };
  };
  const parse = (input: unknown) => {
    const r = updateInput.safeParse(input);
    if (!r.success) throw new InputError(describeZodError(r.error));
    return r.data.rules;
  };

  return {
    dir,
    async get(): Promise<{ rules: PolicyRow[] }> {
      return { rules: await table(overridesOf(await doc.read())) };
    },
    /** PATCH: `{ rules: { "<key>": { review?, reject?, enabled? } } }` merged into the stored overrides. */
    async update(input: unknown) {
      const changes = parse(input);
      return write((current, specs) => validate(specs, current, changes));
    },
    /** PUT: the given overrides replace every stored one. */
    async replace(input: unknown) {
      const changes = parse(input);
      return write((_current, specs) => validate(specs, {}, changes));
    },
    /** Back to the defaults: one rule, or all when no key is given. */
    async reset(key?: string | null) {
      return write((current, specs) => {
        if (!key) return {};
        if (!specs.some((s) => s.key === key)) throw new InputError(`unknown rule ${key}`);
        const next = { ...current };
        delete next[key];
        return next;
      });
    },
  };
}

export type PolicyAdmin = ReturnType<typeof filePolicy>;
