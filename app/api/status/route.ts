import { getRegistry } from "@/server/registry";
import { json } from "../respond";
import { guard } from "@/server/auth/guard";

export const dynamic = "force-dynamic";

export const GET = guard("/api/status", async () => {
  return json(await getRegistry().status.report());
});
