import { NextResponse } from "next/server";
import type { z } from "zod";

/** Below this a JSON answer is not worth compressing (gzip of `{"ok":true}` costs both ends more than it saves). */
const COMPRESS_FROM = 1024;

/** A JSON answer; a small one says no-transform, so the server's compression passes it through as it is. */
export const json = (body: unknown, status = 200) => {
  const text = JSON.stringify(body);
  const small = text.length < COMPRESS_FROM && new TextEncoder().encode(text).length < COMPRESS_FROM;
  return new NextResponse(text, { status, headers: { "content-type": "application/json", "cache-control": small ? "no-store, no-transform" : "no-store" } });
};
export const badRequest = (error: string) => json({ error }, 400);
/** A zod error as one line naming each field (`body` for the body as a whole). */
export const issuesText = (e: z.ZodError) => e.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ");

/** The body text exactly as sent (a byte-order mark kept), so a callback signature checks over the same bytes. */
export const rawText = async (req: Request) => new TextDecoder("utf-8", { ignoreBOM: true }).decode(await req.arrayBuffer());
