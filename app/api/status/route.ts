import { getRegistry } from "@/server/registry";
import { json } from "../respond";

export const dynamic = "force-dynamic";

export async function GET() {
  return json(await getRegistry().status.report());
}
