import { getRegistry } from "@/server/registry";
import { json } from "../respond";
import { guard } from "@/server/auth/guard";

export const dynamic = "force-dynamic";

export const GET = guard("/api/demo", (req: Request) => {
  const host = req.headers.get("host")?.replace(/:\d+$/, "");
  return json(getRegistry().demo.info(host));
});
