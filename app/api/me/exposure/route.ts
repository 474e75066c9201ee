import { guard } from "@/server/auth/guard";
import { getSettingsApi } from "@/server/settings/api";

export const dynamic = "force-dynamic";

export const POST = guard("/api/me/exposure", (req: Request) => getSettingsApi().expose(req));
