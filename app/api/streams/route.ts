import { StreamStartInput } from "@/lib/dashboard-schemas";
import { getRegistry } from "@/server/registry";
import { badRequest, json } from "../respond";
import { guard } from "@/server/auth/guard";

export const dynamic = "force-dynamic";

export const GET = guard("/api/streams", async () => {
  return json({ streams: await getRegistry().dashboard.streams.list() });
});

export const POST = guard("/api/streams", async (req: Request) => {
  const parsed = StreamStartInput.safeParse(await req.json().catch(() => null));
  if (!parsed.success) return badRequest(parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; "));
  const answer = await getRegistry().dashboard.streams.start(parsed.data);
  return answer.ok ? json({ requestId: answer.requestId }) : json({ error: answer.error, code: answer.code, dupRequestId: answer.dupRequestId }, 422);
});
