"use client";

import { Field, inputCls } from "@/components/ui/form";

export type Preset = "24h" | "7d" | "30d" | "custom";
export const PRESET_MS: Record<Exclude<Preset, "custom">, number> = { "24h": 86_400_000, "7d": 7 * 86_400_000, "30d": 30 * 86_400_000 };

export interface RangeState {
  preset: Preset;
  /** datetime-local values (custom range) */
  from: string;
  to: string;
  bucket: "auto" | "hour" | "day";
}

/** The range (a preset or two local times) and the bucket size; Refresh re-reads up to now. */
export default function RangeControls({ value, onChange, onRefresh, busy }: { value: RangeState; onChange: (v: RangeState) => void; onRefresh: () => void; busy: boolean }) {
  return (
    <form className="flex flex-wrap items-end gap-3" aria-label="Range" onSubmit={(e) => (e.preventDefault(), onRefresh())}>
      <Field label="Range" htmlFor="metrics-preset" className="w-36">
        <select id="metrics-preset" className={inputCls} value={value.preset} onChange={(e) => onChange({ ...value, preset: e.target.value as Preset })}>
          <option value="24h">Last 24 hours</option>
          <option value="7d">Last 7 days</option>
          <option value="30d">Last 30 days</option>
          <option value="custom">Custom…</option>
        </select>
      </Field>
      {value.preset === "custom" && (
        <>
          <Field label="From" htmlFor="metrics-from" className="w-48">
            <input id="metrics-from" type="datetime-local" className={inputCls} value={value.from} onChange={(e) => onChange({ ...value, from: e.target.value })} />
          </Field>
          <Field label="To" htmlFor="metrics-to" className="w-48">
            <input id="metrics-to" type="datetime-local" className={inputCls} value={value.to} onChange={(e) => onChange({ ...value, to: e.target.value })} />
          </Field>
        </>
      )}
      <Field label="Per" htmlFor="metrics-bucket" className="w-28">
        <select id="metrics-bucket" className={inputCls} value={value.bucket} onChange={(e) => onChange({ ...value, bucket: e.target.value as RangeState["bucket"] })}>
          <option value="auto">Auto</option>
          <option value="hour">Hour</option>
          <option value="day">Day</option>
        </select>
      </Field>
      <button type="submit" disabled={busy} className="h-[34px] rounded border border-surface-line px-3 text-sm text-zinc-200 hover:bg-surface-sunken disabled:opacity-60">
        {busy ? "Loading…" : "Refresh"}
      </button>
    </form>
  );
}
