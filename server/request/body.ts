import type http from "node:http";
import { MAX_BODY_DEPTH } from "../../lib/contract/storable";

/** Default BODY_MAX_BYTES: the contract caps `data` at 1 MB; the whole body may be a little larger. */
export const MAX_BODY_BYTES = 1024 * 1024 + 64 * 1024;

export class BodyError extends Error {
  /** True when the body was refused for its size: the rest is left unread and the connection closed. */
  constructor(
    message: string,
    readonly tooLarge = false,
  ) {
    super(message);
  }
}

const tooLarge = (limit: number) => new BodyError(`body larger than ${limit} bytes`, true);

/**
 * Reads a request body as JSON whatever the Content-Type (vendor samples send none). A declared
 * Content-Length over `limit` is refused before reading; a streamed body stops at the first byte past it.
 * The request is paused, not destroyed, so the caller can still answer on the socket.
 */
export function readJson(req: http.IncomingMessage, limit = MAX_BODY_BYTES): Promise<unknown> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(tooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (fn: () => void) => {
      req.off("data", onData).off("end", onEnd).off("error", onError).off("close", onClose);
      fn();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      req.pause();
      finish(() => reject(tooLarge(limit)));
    };
    const onEnd = () =>
      finish(() => {
        try {
          resolve(parse(Buffer.concat(chunks)));
        } catch (err) {
          reject(err);
        }
      });
    const onError = (err: Error) => finish(() => reject(new BodyError(`body could not be read: ${err.message}`)));
    const onClose = () => finish(() => reject(new BodyError("connection closed before the body ended")));
    req.on("data", onData).on("end", onEnd).on("error", onError).on("close", onClose);
  });
}

/**
 * Deepest `{`/`[` nesting of a JSON text, counted over its bytes (brackets inside strings skipped); stops at
 * `max + 1`. Linear and cheap, so a hostile nesting is refused before JSON.parse spends CPU on it.
 */
export function jsonDepth(buf: Buffer, max: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < buf.length; i++) {
    const c = buf[i];
    if (inString) {
      if (c === 0x5c) i++; // backslash: the next byte is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > deepest && (deepest = depth) > max) return deepest;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

function parse(buf: Buffer): unknown {
  const text = buf.toString("utf8");
  if (!text.trim()) throw new BodyError("empty body, expected a JSON object");
  if (jsonDepth(buf, MAX_BODY_DEPTH) > MAX_BODY_DEPTH) throw new BodyError(`body nested deeper than ${MAX_BODY_DEPTH} levels`);
  try {
    return JSON.parse(text);
  } catch {
    throw new BodyError("malformed JSON");
  }
}

export { unstorable, MAX_BODY_DEPTH } from "../../lib/contract/storable";
