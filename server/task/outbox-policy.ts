import { Code, codeMessage } from "../../lib/contract/codes";
import type { EngineContext } from "./context";
import { ApiError } from "./errors";

/**
 * New work is refused with 1901 while the callback outbox holds too many undelivered callbacks for this
 * accessKey (CALLBACK_QUEUE_MAX) or in total (CALLBACK_QUEUE_MAX_TOTAL): results that cannot be delivered
 * are not worth producing, and the outbox must not grow without bound. Accepted tasks are unaffected.
 */
export async function requireOutboxRoom(ctx: EngineContext, keyId: string): Promise<void> {
  const why = await ctx.dispatcher.saturated(keyId);
  if (why) throw new ApiError(Code.QPS_LIMIT, `${codeMessage(Code.QPS_LIMIT)}: ${why}`);
}
