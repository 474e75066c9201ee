import type http from "node:http";

/** The contract caps `data` at 1 MB; the whole body may be a little larger. */
export const MAX_BODY_BYTES = 1024 * 1024 + 64 * 1024;

export class BodyError extends Error {}

/** Reads a request body as JSON whatever the Content-Type (vendor samples send none). */
export async function readJson(req: http.IncomingMessage, limit = MAX_BODY_BYTES): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new BodyError(`body larger than ${limit} bytes`);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (!text.trim()) throw new BodyError("empty body, expected a JSON object");
  try {
    return JSON.parse(text);
  } catch {
    throw new BodyError("malformed JSON");
  }
}
