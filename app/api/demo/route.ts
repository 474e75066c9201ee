import { getRegistry } from "@/server/registry";
import { json } from "../respond";

export const dynamic = "force-dynamic";

export function GET(req: Request) {
  const host = req.headers.get("host")?.replace(/:\d+$/, "");
  return json(getRegistry().demo.info(host));
}
