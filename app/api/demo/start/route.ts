import { getRegistry } from "@/server/registry";
import { json } from "../../respond";

export const dynamic = "force-dynamic";

/** Starts the built-in sample source (if needed) and its moderation; answers the stream's requestId. */
export async function POST() {
  const answer = await getRegistry().demo.start();
  return answer.ok ? json({ requestId: answer.requestId }) : json({ error: answer.error, code: answer.code }, 422);
}
