"use client";

import { useState } from "react";
import { useUser } from "@/components/auth/UserContext";
import ErrorNote from "@/components/ui/ErrorNote";
import Panel from "@/components/ui/Panel";
import { Toggle, inputCls } from "@/components/ui/form";
import { LABEL1_NAMES } from "@/lib/labels";
import { ALERT_LEVELS, builtInWellness, type Wellness } from "@/lib/user-settings";
import { useMySettings, useMySettingsQuery, useSaveMySettings, useSaveTeamSettings } from "./useMySettings";

/** Categories a stream incident can carry (riskLabel1), without "normal". */
const CATEGORIES = Object.entries(LABEL1_NAMES).filter(([k]) => k !== "normal");

/** Which live alerts the user gets: off, toast, sound, desktop; which levels and categories. Saved with the account. */
export function AlertSettingsPanel() {
  const a = useMySettings().alerts;
  const save = useSaveMySettings();
  const loaded = useMySettingsQuery().data !== undefined;
  const toggleIn = <T extends string>(list: readonly T[], v: T, on: boolean): T[] => (on ? [...new Set([...list, v])] : list.filter((x) => x !== v));
  return (
    <Panel title={<span id="alerts">Live alerts</span>}>
      <fieldset disabled={!loaded} className="space-y-3 p-3 disabled:opacity-60" data-testid="alert-prefs">
        <p className="text-[11px] text-zinc-400">One alert per live stream, updated in place as its incidents grow. Kept with your account, on every browser.</p>
        <div className="flex flex-wrap gap-x-5 gap-y-2">
          <Toggle label="Alerts off" checked={a.off} onChange={(v) => save.mutate({ alerts: { off: v } })} />
          <Toggle label="Show a toast" checked={a.toast} onChange={(v) => save.mutate({ alerts: { toast: v } })} />
          <Toggle label="Play a sound" checked={a.sound} onChange={(v) => save.mutate({ alerts: { sound: v } })} />
        </div>
        <fieldset className="space-y-1">
          <legend className="mb-1 text-[11px] font-semibold uppercase tracking-wider text-zinc-400">Levels</legend>
          <div className="flex gap-5">
            {ALERT_LEVELS.map((l) => (
              <Toggle key={l} label={l} checked={a.levels.includes(l)} onChange={(on) => save.mutate({ alerts: { levels: toggleIn(a.levels, l, on) } })} />
            ))}
          </div>
        </fieldset>
        <fieldset className="space-y-1">
          <legend className="mb-1 text-[11px] font-semibold uppercase tracking-wider text-zinc-400">Categories {a.categories.length === 0 ? "(all)" : `(${a.categories.length})`}</legend>
          <div className="grid grid-cols-2 gap-x-4 gap-y-1 sm:grid-cols-3">
            {CATEGORIES.map(([slug, name]) => (
              <Toggle key={slug} label={name.en} checked={a.categories.length === 0 || a.categories.includes(slug)} onChange={(on) => {
                const all = CATEGORIES.map(([s]) => s);
                const current = a.categories.length === 0 ? all : a.categories;
                const next = toggleIn(current, slug, on);
                save.mutate({ alerts: { categories: next.length === all.length ? [] : next } });
              }} />
            ))}
          </div>
        </fieldset>
        {save.isError && <ErrorNote prefix="Not saved:" error={save.error} />}
      </fieldset>
    </Panel>
  );
}

function WellnessFields({ value, onChange, idPrefix }: { value: Wellness; onChange: (patch: Partial<Wellness>) => void; idPrefix: string }) {
  const [breakText, setBreakText] = useState<string | null>(null);
  const commit = () => {
    const n = Number(breakText);
    if (breakText !== null && Number.isInteger(n) && n >= 0 && n <= 10_000) onChange({ breakAfter: n });
    setBreakText(null);
  };
  return (
    <div className="space-y-2">
      <Toggle label="Blur and greyscale frames, thumbnails, previews and clips until revealed" checked={value.blur} onChange={(v) => onChange({ blur: v })} />
      <Toggle label="Start incident audio muted" checked={value.muteAudio} onChange={(v) => onChange({ muteAudio: v })} />
      <label htmlFor={`${idPrefix}-break`} className="flex items-center gap-2 text-xs text-zinc-300">
        Break reminder after
        <input id={`${idPrefix}-break`} type="number" min={0} max={10000} className={`${inputCls.replace("w-full", "")} w-20`} value={breakText ?? String(value.breakAfter)} onChange={(e) => setBreakText(e.target.value)} onBlur={commit} onKeyDown={(e) => e.key === "Enter" && commit()} />
        REJECT items a day (0: never)
      </label>
    </div>
  );
}

/** The user's own wellness settings, with what the team default would give. */
export function WellnessPanel() {
  const user = useUser();
  const q = useMySettingsQuery();
  const w = useMySettings().wellness;
  const save = useSaveMySettings();
  const own = q.data?.own.wellness ?? {};
  return (
    <Panel title={<span id="wellness">Wellness</span>}>
      <fieldset disabled={!q.data} className="space-y-3 p-3 disabled:opacity-60" data-testid="wellness-prefs">
        <p className="text-[11px] text-zinc-400">
          Hover, focus or press blurred media to reveal it; on the Review page <kbd>v</kbd> reveals the current incident. Today: <span data-testid="account-exposure">{q.data?.exposure.count ?? 0}</span> REJECT items viewed.
        </p>
        <WellnessFields value={w} onChange={(patch) => save.mutate({ wellness: patch })} idPrefix="me" />
        {user?.role === "reviewer" && Object.keys(own).length === 0 && <p className="text-[11px] text-zinc-500">Following your team&apos;s default.</p>}
        {save.isError && <ErrorNote prefix="Not saved:" error={save.error} />}
      </fieldset>
    </Panel>
  );
}

/** Supervisors: the wellness default for reviewers (a reviewer's own choice still wins). */
export function TeamWellnessPanel() {
  const q = useMySettingsQuery();
  const save = useSaveTeamSettings();
  // shown at once while the server saves it
  const [draft, setDraft] = useState<Partial<Wellness> | null>(null);
  const stored = { ...(q.data?.team.wellness ?? {}), ...(draft ?? {}) };
  const team = { ...builtInWellness("reviewer"), ...stored };
  return (
    <Panel title="Team wellness default (reviewers)">
      <fieldset disabled={!q.data} className="space-y-3 p-3 disabled:opacity-60" data-testid="team-wellness">
        <p className="text-[11px] text-zinc-400">What reviewers get until they choose otherwise on their Account page.</p>
        <WellnessFields value={team} onChange={(patch) => {
            const next = { ...stored, ...patch };
            setDraft(next);
            save.mutate({ wellness: next });
          }} idPrefix="team" />
        {save.isSuccess && <p className="text-[11px] text-risk-pass">Saved.</p>}
        {save.isError && <ErrorNote prefix="Not saved:" error={save.error} />}
      </fieldset>
    </Panel>
  );
}
