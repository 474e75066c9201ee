// A store (PostgreSQL) or queue (Redis) that cannot be reached right now: a restart, a failover, a network cut. Such
// an error is temporary: the API answers it with a documented retryable code and the loops retry, never exit.

/** SQLSTATE classes/codes of a server going away or not accepting connections yet (08 connection, 57P admin). */
const PG_GONE = /^(08\d{3}|57P0[1-4])$/;
const NET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND", "EAI_AGAIN", "ENETUNREACH"]);
const MESSAGES = /Connection terminated|connection (?:is )?closed|Client has encountered a connection error|terminating connection|the database system is (?:starting up|shutting down|in recovery)|Connection is closed|Stream isn't writeable|timeout exceeded when trying to connect/i;

/** Whether `err` (or an error it wraps, e.g. drizzle's query error) says the store or queue is unreachable. */
export function isUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (typeof e !== "object") return false;
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === "string" && (PG_GONE.test(code) || NET_CODES.has(code))) return true;
    if (typeof message === "string" && MESSAGES.test(message)) return true;
    // AggregateError (a connect to several addresses refused)
    const inner = (e as { errors?: unknown[] }).errors;
    if (Array.isArray(inner) && inner.some((x) => isUnavailable(x))) return true;
  }
  return false;
}

/** Seconds a client is told to wait before retrying a request refused because the store is unreachable. */
export const UNAVAILABLE_RETRY_SEC = 5;

/** The innermost message of an error chain (the driver's own words, not the failed query with its parameters). */
function rootMessage(err: unknown): string {
  let e = err as { cause?: unknown; message?: string } | undefined;
  while (e?.cause && typeof e.cause === "object") e = e.cause as typeof e;
  return String(e?.message ?? err).split("\n")[0].slice(0, 160);
}

const lastNoted = new Map<string, number>();
/** A loop's error line: for an unreachable store/queue one short line per `where` every 30 s (no query text). */
export function noteLoopError(where: string, err: unknown, log: ((m: string) => void) | undefined): void {
  if (!isUnavailable(err)) return void log?.(`${where}: ${(err as Error).message}`);
  const now = Date.now();
  if (now - (lastNoted.get(where) ?? 0) < 30_000) return;
  lastNoted.set(where, now);
  log?.(`${where}: the store or queue is unreachable (${rootMessage(err)}); retrying`);
}
