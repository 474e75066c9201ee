import { getRegistry } from "@/server/registry";
import { guard } from "@/server/auth/guard";

export const dynamic = "force-dynamic";

const notConfigured = () => new Response(JSON.stringify({ error: "sign-in with OpenID Connect is not configured (OIDC_ISSUER)" }), { status: 404, headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" } });

export const GET = guard("/api/auth/oidc/callback", (req: Request) => getRegistry().oidc?.callback(req) ?? notConfigured());
