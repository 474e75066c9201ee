import { getRegistry } from "@/server/registry";
import { guard } from "@/server/auth/guard";
import { json } from "../respond";
import { caller, parseQuery } from "./parse";

export const dynamic = "force-dynamic";

export const GET = guard("/api/incidents", async (req: Request) => {
  const q = parseQuery(req);
  if (!q.ok) return q.answer;
  return json({ incidents: await getRegistry().incidents.list(q.data, caller(req)) });
});
