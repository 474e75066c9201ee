import { getRegistry } from "@/server/registry";
import { json } from "../../respond";
import { guard } from "@/server/auth/guard";

export const dynamic = "force-dynamic";

/** Starts the built-in sample source (if needed) and its moderation; answers the stream's requestId. */
export const POST = guard("/api/demo/start", async () => {
  const answer = await getRegistry().demo.start();
  return answer.ok ? json({ requestId: answer.requestId }) : json({ error: answer.error, code: answer.code }, 422);
});
