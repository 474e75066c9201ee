import { eq } from "drizzle-orm";
import type { Config } from "../config";
import { keyId } from "../service/access-keys";
import type { Db } from "../store/db";
import { tasks } from "../store/schema";
import type { DispatcherOptions } from "./dispatcher";
import { signWebhook } from "./signature";

/** The secret callbacks for `accessKey` are signed with: its own (CALLBACK_SIGNING_SECRETS) or the global one. */
export function signingSecretFor(config: Pick<Config, "callbackSigning">, accessKey: string): string | null {
  return config.callbackSigning.perKey[accessKey] ?? config.callbackSigning.secret;
}

/**
 * The dispatcher's `sign` hook: adds `webhook-signature` with the secret of the task's accessKey (looked up by
 * key id, the store never holds keys), or the global secret; no header when neither is configured.
 */
export function callbackSigner(config: Pick<Config, "callbackSigning">, db: Db, byPrincipal: Record<string, string> = {}): DispatcherOptions["sign"] {
  // per-principal secrets (the embedded dashboard's own) by key id, beside the per-accessKey ones
  const byKeyId = new Map([...Object.entries(config.callbackSigning.perKey).map(([key, secret]) => [keyId(key), secret] as const), ...Object.entries(byPrincipal)]);
  const global = config.callbackSigning.secret;
  if (byKeyId.size === 0 && !global) return undefined;
  return async ({ id, requestId, timestampSec, body }): Promise<Record<string, string>> => {
    let secret = global;
    if (byKeyId.size > 0) {
      const [task] = await db.select({ keyId: tasks.keyId }).from(tasks).where(eq(tasks.requestId, requestId)).limit(1);
      secret = (task && byKeyId.get(task.keyId)) ?? global;
    }
    return secret ? { "webhook-signature": signWebhook(secret, id, timestampSec, body) } : {};
  };
}
