/** A refused auth operation: `status` is the HTTP status the API answers with. */
export class AuthError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** sent as Retry-After (429) */
    readonly retryAfterSec?: number,
  ) {
    super(message);
  }
}
