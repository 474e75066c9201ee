"use client";

import { useState, type FormEvent } from "react";
import { apiJson } from "@/components/api/http";
import ErrorNote from "@/components/ui/ErrorNote";
import Panel from "@/components/ui/Panel";
import { Field, inputCls } from "@/components/ui/form";
import { ROLE_DESCRIPTIONS, type SessionUser } from "@/lib/roles";
import { AlertSettingsPanel, WellnessPanel } from "@/components/settings/SettingsPanels";

/** The signed-in user's account: role, password change (required after a one-time password). */
export default function AccountPage({ user, mustChange }: { user: SessionUser | null; mustChange: boolean }) {
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [repeat, setRepeat] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    if (next !== repeat) return setError(new Error("the two new passwords differ"));
    try {
      await apiJson("/api/auth/password", { method: "POST", body: { current, next } });
      setDone(true);
      if (mustChange) window.location.assign("/");
    } catch (err) {
      setError(err);
    }
  }

  return (
    <div className="mx-auto max-w-xl space-y-4">
      {user && (
        <p className="text-zinc-300" data-testid="account-user">
          Signed in as <span className="font-semibold text-zinc-100">{user.username}</span> — {user.role}: {ROLE_DESCRIPTIONS[user.role]}
        </p>
      )}
      <Panel title={mustChange ? "Choose your password (the one-time password must be replaced)" : "Change password"}>
        <form onSubmit={submit} className="space-y-3 p-3" data-testid="password-form">
          <Field label="Current password" htmlFor="pw-current">
            <input id="pw-current" type="password" autoComplete="current-password" className={inputCls} value={current} onChange={(e) => setCurrent(e.target.value)} required />
          </Field>
          <Field label="New password (10+ characters)" htmlFor="pw-next">
            <input id="pw-next" type="password" autoComplete="new-password" minLength={10} className={inputCls} value={next} onChange={(e) => setNext(e.target.value)} required />
          </Field>
          <Field label="New password again" htmlFor="pw-repeat">
            <input id="pw-repeat" type="password" autoComplete="new-password" className={inputCls} value={repeat} onChange={(e) => setRepeat(e.target.value)} required />
          </Field>
          {error !== null && <ErrorNote error={error} />}
          {done && <p className="text-xs text-risk-pass">Password changed.</p>}
          <button type="submit" className="rounded bg-sky-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-sky-500">
            Change password
          </button>
        </form>
      </Panel>
      {user && !mustChange && (
        <>
          <AlertSettingsPanel />
          <WellnessPanel />
        </>
      )}
    </div>
  );
}
