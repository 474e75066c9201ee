"use client";

import type { FormEvent } from "react";
import { apiJson } from "@/components/api/http";
import { useAction } from "@/components/hooks/useAction";
import ErrorNote from "@/components/ui/ErrorNote";
import type { PolicyRule } from "@/lib/dashboard-api";

const shown = (x: number | null) => (x === null ? "" : String(x));
/** "" → null (that band is off); anything else must be a number (the server checks the range and order). */
const parsed = (s: string): number | null => (s.trim() === "" ? null : Number(s));

/** One detector/label: review and reject thresholds, enabled; saved with PATCH, reset with DELETE ?key=. */
export default function PolicyRow(p: { rule: PolicyRule; onChange: () => void }) {
  const { rule } = p;
  const { error, busy, run: call } = useAction(p.onChange);
  const step = rule.range[1] > 1 ? 1 : 0.01;
  function save(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const change = { review: parsed(String(f.get("review") ?? "")), reject: parsed(String(f.get("reject") ?? "")), enabled: f.get("enabled") === "on" };
    void call(() => apiJson("/api/policy", { method: "PATCH", body: { rules: { [rule.key]: change } } }));
  }
  const reset = () => void call(() => apiJson(`/api/policy?${new URLSearchParams({ key: rule.key })}`, { method: "DELETE" }));
  const input = "w-20 rounded border border-surface-line bg-surface px-1.5 py-0.5 text-right";
  const d = rule.defaults;
  // the form's identity follows the stored values, so a save or reset refreshes the inputs
  const formKey = `${shown(rule.effective.review)}|${shown(rule.effective.reject)}|${rule.effective.enabled}`;
  return (
    <tr className="border-t border-surface-line align-top" data-testid="policy-row" data-key={rule.key} data-overridden={rule.overridden}>
      <td className="px-3 py-1.5">
        <div className="font-mono text-xs">{rule.key}</div>
        <div className="text-xs text-zinc-400">{rule.label}</div>
        <div className="text-[11px] text-zinc-500">
          score: {rule.score} · fires {rule.direction === "atMost" ? "at or below" : "at or above"} a threshold · default review {shown(d.review) || "off"}, reject {shown(d.reject) || "off"}
        </div>
        {error !== null && <ErrorNote error={error} testId="policy-error" />}
      </td>
      <td className="px-2 py-1.5" colSpan={4}>
        <form key={formKey} onSubmit={save} className="flex items-center gap-3 text-xs">
          <input name="review" type="number" step={step} min={rule.range[0]} max={rule.range[1]} defaultValue={shown(rule.effective.review)} placeholder="off" aria-label={`${rule.key} review threshold`} className={input} />
          <input name="reject" type="number" step={step} min={rule.range[0]} max={rule.range[1]} defaultValue={shown(rule.effective.reject)} placeholder="off" aria-label={`${rule.key} reject threshold`} className={input} />
          <label className="flex items-center gap-1">
            <input name="enabled" type="checkbox" defaultChecked={rule.effective.enabled} aria-label={`${rule.key} enabled`} /> enabled
          </label>
          <button type="submit" disabled={busy} className="rounded bg-zinc-200 px-2 py-0.5 font-medium text-zinc-900 disabled:opacity-50">
            Save
          </button>
          {rule.overridden && (
            <button type="button" disabled={busy} onClick={reset} className="text-sky-300 hover:underline">
              reset to default
            </button>
          )}
        </form>
      </td>
    </tr>
  );
}
