import { getRegistry } from "@/server/registry";
import { json } from "../respond";
import { guard } from "@/server/auth/guard";

export const dynamic = "force-dynamic";

export const GET = guard("/api/lists", async () => {
  const engine = getRegistry().engine;
  if (!engine) return json({ error: "reference lists belong to the embedded service; this dashboard drives a remote one" }, 409);
  return json(await engine.lists.all());
});
