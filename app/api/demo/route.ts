import { getRegistry } from "@/server/registry";
import { json } from "../respond";

export const dynamic = "force-dynamic";

export function GET() {
  return json(getRegistry().demo.info());
}
