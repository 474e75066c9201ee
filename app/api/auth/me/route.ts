import { getRegistry } from "@/server/registry";
import { guard } from "@/server/auth/guard";

export const dynamic = "force-dynamic";

export const GET = guard("/api/auth/me", (req: Request) => getRegistry().auth.me(req));
