import { guard } from "@/server/auth/guard";
import { getRegistry } from "@/server/registry";

export const dynamic = "force-dynamic";

export const GET = guard("/api/me/settings", (req: Request) => getRegistry().settings.getMine(req));
export const PUT = guard("/api/me/settings", (req: Request) => getRegistry().settings.putMine(req));
