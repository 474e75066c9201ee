import { guard } from "@/server/auth/guard";
import { getSettingsApi } from "@/server/settings/api";

export const dynamic = "force-dynamic";

export const GET = guard("/api/me/settings", (req: Request) => getSettingsApi().getMine(req));
export const PUT = guard("/api/me/settings", (req: Request) => getSettingsApi().putMine(req));
