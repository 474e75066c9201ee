import { getRegistry } from "@/server/registry";
import { json } from "../respond";

export const dynamic = "force-dynamic";

export function GET() {
  const r = getRegistry();
  return json({ ok: true, embedded: r.engine !== null });
}
