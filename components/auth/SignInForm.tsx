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

/** Why a sign-in through the identity provider was refused (server/auth/oidc/flow.ts OidcFailure). */
const OIDC_ERRORS: Record<string, string> = {
  "no-role": "Your company account is not in a group that grants a role on this dashboard. Ask a supervisor to add you to the moderation, review or supervisor group, then sign in again.",
  disabled: "This account is disabled on the dashboard. Ask a supervisor to enable it.",
  expired: "The sign-in took too long or was started in another browser tab or window. Please try again.",
  provider: "The identity provider did not sign you in (cancelled or refused). Please try again.",
  rejected: "The identity provider's answer could not be verified, so you were not signed in. Please try again; if it keeps happening, tell a supervisor.",
  unavailable: "The identity provider cannot be reached right now. Try again shortly, or use a local account.",
  "redirect-uri": "Sign-in with the identity provider is not set up for this address (PUBLIC_BASE_URL). Use a local account or ask an administrator.",
};

export default function SignInForm({ next, oidcLabel = null, oidcError = null }: { next: string | null; oidcLabel?: string | null; oidcError?: string | null }) {
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
      {oidcError !== null && (
        <p role="alert" data-testid="oidc-error" className="rounded border border-risk-reject/40 bg-risk-reject/10 px-3 py-2 text-sm text-red-200">
          {OIDC_ERRORS[oidcError] ?? "Sign-in with the identity provider failed. Please try again."}
        </p>
      )}
      {oidcLabel !== null && (
        <>
          {/* a plain navigation: the server seals state, nonce and the PKCE verifier in a cookie and sends the browser to the provider */}
          <a href={`/api/auth/oidc/start?next=${encodeURIComponent(next ?? "/")}`} data-testid="oidc-signin" className="block w-full rounded bg-sky-600 px-3 py-2 text-center text-sm font-medium text-white hover:bg-sky-500">
            Sign in with {oidcLabel}
          </a>
          <div className="flex items-center gap-2 text-xs text-zinc-500" aria-hidden="true">
            <span className="h-px flex-1 bg-surface-line" />
            or with a local account
            <span className="h-px flex-1 bg-surface-line" />
          </div>
        </>
      )}
      <Field label="Username" htmlFor="signin-username">
        <input id="signin-username" className={inputCls} autoComplete="username" value={username} onChange={(e) => setUsername(e.target.value)} required autoFocus />
      </Field>
      <Field label="Password" htmlFor="signin-password">
        <input id="signin-password" type="password" className={inputCls} autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required />
      </Field>
      {error !== null && <ErrorNote error={error} />}
      <button type="submit" disabled={busy} className={`w-full rounded px-3 py-1.5 text-sm font-medium text-white disabled:opacity-50 ${oidcLabel !== null ? "bg-zinc-700 hover:bg-zinc-600" : "bg-sky-600 hover:bg-sky-500"}`}>
        {busy ? "Signing in…" : "Sign in"}
      </button>
      <p className="text-xs text-zinc-500">On first start the server prints the supervisor account&apos;s one-time password in its log.</p>
    </form>
  );
}
