"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { Rule } from "@/lib/rules";
import { apiJson } from "@/components/api/http";
import ErrorNote from "@/components/ui/ErrorNote";
import Panel from "@/components/ui/Panel";
import { Field, inputCls } from "@/components/ui/form";
import BacktestPanel from "./BacktestPanel";
import { EMPTY_FORM, toBody, toForm, type RuleForm } from "./rule-form";

const box = "h-4 w-4 accent-sky-500";

/** Create or change a rule; every save is a new version. A new rule is saved in shadow mode unless chosen otherwise. */
export default function RuleEditor({ rule, onDone }: { rule: Rule | null; onDone: () => void }) {
  const qc = useQueryClient();
  const [f, setF] = useState<RuleForm>(rule ? toForm(rule) : EMPTY_FORM);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof RuleForm>(k: K, v: RuleForm[K]) => setF((x) => ({ ...x, [k]: v }));
  const text = (k: "name" | "labels" | "lists" | "minScore" | "titlePattern" | "tokenIdPattern" | "count" | "withinSec" | "webhook", label: string, hint?: string, cls = "") => (
    <Field label={label} htmlFor={`rule-${k}`} hint={hint} className={cls}>
      <input id={`rule-${k}`} className={inputCls} value={f[k]} onChange={(e) => set(k, e.target.value)} />
    </Field>
  );

  async function save() {
    setBusy(true);
    setError(null);
    try {
      const body = toBody(f);
      if (rule) await apiJson(`/api/rules/${rule.id}`, { method: "PATCH", body });
      else await apiJson("/api/rules", { method: "POST", body });
      await qc.invalidateQueries({ queryKey: ["rules"] });
      onDone();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Panel title={rule ? `Edit ${rule.name} (v${rule.version})` : "New rule"}>
      <form className="space-y-3 p-3" onSubmit={(e) => (e.preventDefault(), void save())}>
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          {text("name", "Name")}
          <Field label="Mode" htmlFor="rule-mode">
            <select id="rule-mode" className={inputCls} value={f.mode} onChange={(e) => set("mode", e.target.value as RuleForm["mode"])}>
              <option value="shadow">shadow: record only</option>
              <option value="live">live: act</option>
              <option value="off">off</option>
            </select>
          </Field>
          {text("labels", "Categories", "riskLabel1 slugs, comma-separated: ad, porn, politics …")}
          {text("lists", "Lists", "list names; a hit counts when it matched one of them")}
          {text("count", "Hits needed")}
          {text("withinSec", "Within (s)")}
          {text("minScore", "Minimum score", "0–1")}
          {text("titlePattern", "Title pattern", "* and ? wildcards")}
          {text("tokenIdPattern", "tokenId pattern", "* and ? wildcards")}
        </div>
        <fieldset className="flex flex-wrap gap-4 text-sm text-zinc-300">
          <legend className="mb-1 text-[11px] font-semibold uppercase tracking-wider text-zinc-400">When</legend>
          {(["REJECT", "REVIEW"] as const).map((l) => (
            <label key={l} className="flex items-center gap-1.5"><input type="checkbox" className={box} checked={f.levels[l]} onChange={(e) => set("levels", { ...f.levels, [l]: e.target.checked })} />{l}</label>
          ))}
          {(["stream", "file"] as const).map((k) => (
            <label key={k} className="flex items-center gap-1.5"><input type="checkbox" className={box} checked={f.kinds[k]} onChange={(e) => set("kinds", { ...f.kinds, [k]: e.target.checked })} />{k}s</label>
          ))}
        </fieldset>
        <fieldset className="flex flex-wrap gap-4 text-sm text-zinc-300">
          <legend className="mb-1 text-[11px] font-semibold uppercase tracking-wider text-zinc-400">Then</legend>
          <label className="flex items-center gap-1.5"><input type="checkbox" className={box} checked={f.close} onChange={(e) => set("close", e.target.checked)} />close the stream</label>
          <label className="flex items-center gap-1.5"><input type="checkbox" className={box} checked={f.alert} onChange={(e) => set("alert", e.target.checked)} />priority alert</label>
          <label className="flex items-center gap-1.5"><input type="checkbox" className={box} checked={f.confirm} onChange={(e) => set("confirm", e.target.checked)} />confirm the incident</label>
          <label className="flex items-center gap-1.5"><input type="checkbox" className={box} checked={f.stopAfterMatch} onChange={(e) => set("stopAfterMatch", e.target.checked)} />stop after this rule</label>
        </fieldset>
        {text("webhook", "Webhook URL", "signed with Standard Webhooks; retried", "max-w-xl")}
        {error ? <ErrorNote error={error} /> : null}
        <div className="flex flex-wrap gap-2">
          <button type="submit" disabled={busy} className="rounded bg-sky-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-sky-500 disabled:opacity-50">{busy ? "Saving…" : "Save"}</button>
          <button type="button" className="rounded border border-surface-line px-3 py-1.5 text-sm text-zinc-300" onClick={onDone}>Cancel</button>
        </div>
      </form>
      <BacktestPanel draft={() => toBody(f)} />
    </Panel>
  );
}
