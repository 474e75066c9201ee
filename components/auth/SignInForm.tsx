"use client";

import { useState, type FormEvent } from "react";
import { apiJson } from "@/components/api/http";
import ErrorNote from "@/components/ui/ErrorNote";
import { Field, inputCls } from "@/components/ui/form";

/**
 * Only this origin's pages are followed after sign-in (no open redirect): `next` is resolved against the page's
 * origin as the browser would, accepted only when the result has that same origin, and returned as an absolute
 * URL of it — never a path a browser could read as protocol-relative ("/.//evil.example" resolves to the path
 * "//evil.example", which `location.assign` would take to another host). Repeated slashes are folded.
 */
export function safeNext(next: string | null, origin: string): string {
  const home = `${origin}/streams`;
  if (!next) return home;
  try {
    const u = new URL(next, `${origin}/`);
    if (u.origin !== origin) return home;
    const target = new URL(`${u.pathname.replace(/\/{2,}/g, "/")}${u.search}${u.hash}`, `${origin}/`);
    return target.origin === origin ? target.href : home;
  } catch {
    return home;
  }
}

export default function SignInForm({ next }: { next: string | null }) {
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await apiJson("/api/auth/signin", { method: "POST", body: { username, password } });
      // a full load, so the server renders the pages for the signed-in user
      // without a `next`, "/" sends each role to its home page (reviewers: the review queue)
      window.location.assign(safeNext(next ?? "/", window.location.origin));
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} className="mx-auto mt-16 max-w-sm space-y-4 rounded border border-surface-line bg-surface-raised p-6" data-testid="signin-form">
      <h1 className="text-lg font-semibold text-zinc-100">Sign in</h1>
      <Field label="Username" htmlFor="signin-username">
        <input id="signin-username" className={inputCls} autoComplete="username" value={username} onChange={(e) => setUsername(e.target.value)} required autoFocus />
      </Field>
      <Field label="Password" htmlFor="signin-password">
        <input id="signin-password" type="password" className={inputCls} autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required />
      </Field>
      {error !== null && <ErrorNote error={error} />}
      <button type="submit" disabled={busy} className="w-full rounded bg-sky-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-sky-500 disabled:opacity-50">
        {busy ? "Signing in…" : "Sign in"}
      </button>
      <p className="text-xs text-zinc-500">On first start the server prints the supervisor account&apos;s one-time password in its log.</p>
    </form>
  );
}
