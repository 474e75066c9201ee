import { getRegistry } from "@/server/registry";
import { json } from "../respond";
import { guard } from "@/server/auth/guard";

export const dynamic = "force-dynamic";

export const GET = guard("/api/config", () => {
  return json(getRegistry().dashboard.config());
});
