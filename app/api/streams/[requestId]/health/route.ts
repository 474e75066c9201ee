import { getRegistry } from "@/server/registry";
import { json } from "../../../respond";
import { guard } from "@/server/auth/guard";

export const dynamic = "force-dynamic";

/** The stream's health snapshot and stored health events; the embedded engine only (a remote service has no health API). */
export const GET = guard("/api/streams/[requestId]/health", async (_req: Request, ctx: { params: Promise<{ requestId: string }> }) => {
  const { engine } = getRegistry();
  if (!engine) return json({ error: "stream health needs the embedded engine: the remote service has no health API" }, 501);
  const report = await engine.streams.healthReport((await ctx.params).requestId);
  return report ? json(report) : json({ error: "unknown stream" }, 404);
});
