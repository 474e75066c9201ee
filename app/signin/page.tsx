import type { Metadata } from "next";
import SignInForm from "@/components/auth/SignInForm";
import { getRegistry } from "@/server/registry";

export const metadata: Metadata = { title: "Sign in · Moderation dashboard" };

/** The identity provider's button name, when sign-in with OpenID Connect is configured (OIDC_LABEL). */
function oidcLabel(): string | null {
  try {
    return getRegistry().oidc?.label ?? null;
  } catch {
    return null; // no registry (e.g. next build): local sign-in only
  }
}

export default async function Page({ searchParams }: { searchParams: Promise<{ next?: string; error?: string }> }) {
  const { next, error } = await searchParams;
  return <SignInForm next={typeof next === "string" ? next : null} oidcLabel={oidcLabel()} oidcError={typeof error === "string" ? error : null} />;
}
