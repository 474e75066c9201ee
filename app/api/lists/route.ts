import { getRegistry } from "@/server/registry";
import { json } from "../respond";

export const dynamic = "force-dynamic";

export async function GET() {
  const engine = getRegistry().engine;
  if (!engine) return json({ error: "reference lists belong to the embedded service; this dashboard drives a remote one" }, 409);
  return json(await engine.lists.all());
}
