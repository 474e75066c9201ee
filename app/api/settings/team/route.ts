import { guard } from "@/server/auth/guard";
import { getSettingsApi } from "@/server/settings/api";

export const dynamic = "force-dynamic";

export const GET = guard("/api/settings/team", (req: Request) => getSettingsApi().getTeam(req));
export const PUT = guard("/api/settings/team", (req: Request) => getSettingsApi().putTeam(req));
