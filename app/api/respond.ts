import { NextResponse } from "next/server";

export const json = (body: unknown, status = 200) => NextResponse.json(body, { status, headers: { "cache-control": "no-store" } });
export const badRequest = (error: string) => json({ error }, 400);

/** The body text exactly as sent (a byte-order mark kept), so a callback signature checks over the same bytes. */
export const rawText = async (req: Request) => new TextDecoder("utf-8", { ignoreBOM: true }).decode(await req.arrayBuffer());
