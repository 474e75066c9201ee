import { StreamStartInput } from "@/lib/dashboard-schemas";
import { getRegistry } from "@/server/registry";
import { badRequest, issuesText, json } from "../respond";
import { guard } from "@/server/auth/guard";

export const dynamic = "force-dynamic";

export const GET = guard("/api/streams", async () => {
  return json({ streams: await getRegistry().dashboard.streams.list() });
});

export const POST = guard("/api/streams", async (req: Request) => {
  const parsed = StreamStartInput.safeParse(await req.json().catch(() => null));
  if (!parsed.success) return badRequest(issuesText(parsed.error));
  const answer = await getRegistry().dashboard.streams.start(parsed.data);
  return answer.ok ? json({ requestId: answer.requestId }) : json({ error: answer.error, code: answer.code, dupRequestId: answer.dupRequestId }, 422);
});
