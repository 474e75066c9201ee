import { guard } from "@/server/auth/guard";
import { getRegistry } from "@/server/registry";

export const dynamic = "force-dynamic";

export const POST = guard("/api/me/exposure", (req: Request) => getRegistry().settings.expose(req));
