import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import Busboy from "busboy";
import { sameSecret } from "../net/constant-time";

/**
 * Files uploaded from the Files page (POST /api/files as multipart/form-data). Each is streamed to disk under
 * DATA_DIR/media/upload-<id>/ (never held in memory, cut at UPLOAD_MAX_MB) and handed to the service as a signed,
 * expiring same-origin link (GET /api/uploads/<id>/<name>?exp&sig), so the service (or a worker, through
 * PUBLIC_BASE_URL) fetches it like any URL. The folder is swept with the media of finished tasks after
 * RESULT_RETENTION_HOURS (server/store/retention.ts: media folders no task holds).
 */
export interface UploadedFile {
  id: string;
  name: string;
  size: number;
  path: string;
}
export type UploadAnswer =
  | { ok: true; input: unknown; file: UploadedFile }
  | { ok: false; status: number; error: string };

const SAFE_NAME = /[^A-Za-z0-9._-]+/g;
/** A file name as stored and linked: its own characters where safe, never a path, never empty. */
export const safeName = (name: string) => (path.basename(name).replace(SAFE_NAME, "_").replace(/^\.+/, "").slice(-100) || "upload.bin");
const ID = /^upload-[0-9a-f]{16}$/;

export function createUploads(o: { mediaRoot: string; secret: Buffer; maxBytes: number; linkTtlSec?: number }) {
  const sign = (id: string, name: string, exp: number) => crypto.createHmac("sha256", o.secret).update(`upload\n${id}\n${name}\n${exp}`).digest("base64url").slice(0, 32);
  const fileOf = (id: string, name: string) => path.join(o.mediaRoot, id, name);

  /** Reads a multipart body: one `file` part (streamed to disk) and one `input` part (JSON text, parsed by the caller). */
  async function receive(req: Request): Promise<UploadAnswer> {
    const type = req.headers.get("content-type") ?? "";
    if (!req.body || !/^multipart\/form-data;/i.test(type)) return { ok: false, status: 400, error: "send multipart/form-data with a `file` part and an `input` part" };
    const id = `upload-${crypto.randomBytes(8).toString("hex")}`;
    const dir = path.join(o.mediaRoot, id);
    await fs.promises.mkdir(dir, { recursive: true, mode: 0o700 });
    let input: string | null = null;
    let file: UploadedFile | null = null;
    let problem: { status: number; error: string } | null = null;
    const writes: Promise<void>[] = [];
    const bb = Busboy({ headers: { "content-type": type }, limits: { files: 1, fields: 4, fieldSize: 64 * 1024, fileSize: o.maxBytes, parts: 6 } });
    bb.on("field", (name, value) => {
      if (name === "input") input = value;
    });
    bb.on("file", (name, stream, info) => {
      if (name !== "file" || file) {
        stream.resume();
        return;
      }
      const stored: UploadedFile = { id, name: safeName(info.filename ?? ""), size: 0, path: "" };
      stored.path = fileOf(id, stored.name);
      file = stored;
      stream.on("data", (c: Buffer) => (stored.size += c.length));
      stream.on("limit", () => (problem = { status: 413, error: `the file is larger than UPLOAD_MAX_MB (${Math.round(o.maxBytes / 1048576)} MB)` }));
      writes.push(pipeline(stream, fs.createWriteStream(stored.path, { mode: 0o600 })));
    });
    bb.on("filesLimit", () => (problem ??= { status: 400, error: "one file per request" }));
    try {
      await pipeline(Readable.fromWeb(req.body as import("node:stream/web").ReadableStream), bb);
      await Promise.all(writes);
    } catch (err) {
      problem ??= { status: 400, error: `the upload was cut off or malformed (${(err as Error).message}): try again` };
    }
    const done = file as UploadedFile | null;
    if (!problem && !done) problem = { status: 400, error: "no `file` part in the form" };
    if (!problem && done && done.size === 0) problem = { status: 400, error: "the file is empty" };
    if (!problem && input === null) problem = { status: 400, error: "no `input` part: send the settings as JSON in a part named input" };
    if (problem || !done) {
      await fs.promises.rm(dir, { recursive: true, force: true });
      return { ok: false, ...(problem ?? { status: 400, error: "bad upload" }) };
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(input!);
    } catch {
      await fs.promises.rm(dir, { recursive: true, force: true });
      return { ok: false, status: 400, error: "input: not valid JSON" };
    }
    return { ok: true, input: parsed, file: done };
  }

  return {
    maxBytes: o.maxBytes,
    receive,
    /** A link the service may fetch for the retention of the task (RESULT_RETENTION_HOURS), default 24 h. */
    link(origin: string, f: Pick<UploadedFile, "id" | "name">): string {
      const exp = Math.floor(Date.now() / 1000) + (o.linkTtlSec ?? 24 * 3600);
      return `${origin}/api/uploads/${f.id}/${encodeURIComponent(f.name)}?exp=${exp}&sig=${sign(f.id, f.name, exp)}`;
    },
    /** Removes an upload the service refused (nothing will fetch it). */
    discard: (f: Pick<UploadedFile, "id">) => (ID.test(f.id) ? fs.promises.rm(path.join(o.mediaRoot, f.id), { recursive: true, force: true }) : Promise.resolve()),
    /** GET /api/uploads/<id>/<name>?exp&sig: the file to whoever holds the signed link (the service), else 403/404. */
    async serve(url: URL, id: string, name: string): Promise<Response> {
      const exp = Number(url.searchParams.get("exp"));
      const ok = ID.test(id) && safeName(name) === name && Number.isFinite(exp) && exp * 1000 >= Date.now() && sameSecret(url.searchParams.get("sig") ?? "", sign(id, name, exp));
      if (!ok) return new Response("forbidden", { status: 403, headers: { "content-type": "text/plain" } });
      const file = fileOf(id, name);
      const st = await fs.promises.stat(file).catch(() => null);
      if (!st?.isFile()) return new Response("not found", { status: 404, headers: { "content-type": "text/plain" } });
      const body = Readable.toWeb(fs.createReadStream(file)) as ReadableStream;
      return new Response(body, { headers: { "content-type": "application/octet-stream", "content-length": String(st.size), "x-content-type-options": "nosniff", "content-security-policy": "default-src 'none'; sandbox", "cache-control": "private, no-store" } });
    },
  };
}
export type Uploads = ReturnType<typeof createUploads>;
