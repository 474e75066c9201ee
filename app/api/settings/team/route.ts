import { guard } from "@/server/auth/guard";
import { getRegistry } from "@/server/registry";

export const dynamic = "force-dynamic";

export const GET = guard("/api/settings/team", (req: Request) => getRegistry().settings.getTeam(req));
export const PUT = guard("/api/settings/team", (req: Request) => getRegistry().settings.putTeam(req));
