import { createWriteStream } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import type { IncomingMessage } from "node:http";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { Transform } from "node:stream";
import { randomBytes } from "node:crypto";
import type { NetworkList } from "../net/networks";
import { pinnedRequest, type CheckedTarget } from "../net/pinned";
import { UrlRefusedError, checkUrl } from "./url-guard";

export type DownloadErrorKind = "too-large" | "http-status" | "refused-url" | "network" | "timeout";

export class DownloadError extends Error {
  readonly kind: DownloadErrorKind;
  readonly status?: number;
  constructor(kind: DownloadErrorKind, message: string, options?: { status?: number; cause?: unknown }) {
    super(message, { cause: options?.cause });
    this.name = "DownloadError";
    this.kind = kind;
    if (options?.status !== undefined) this.status = options.status;
  }
}

export interface DownloadOptions {
  maxBytes: number;
  /** For the whole download, redirects included. */
  timeoutMs: number;
  allowPrivate: boolean;
  allowedOrigins?: string[];
  /** ALLOW_NETWORKS: private networks the download (and each redirect) may reach */
  allowNetworks?: NetworkList;
  maxRedirects?: number;
  /** Aborting rejects with the signal's reason (an AbortError), not a DownloadError. */
  signal?: AbortSignal;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function request(target: CheckedTarget, signal: AbortSignal): Promise<IncomingMessage> {
  return pinnedRequest(target, { signal, headers: { "accept-encoding": "identity", "user-agent": "moderation-ingest/1" } });
}

/** Caps the stream at maxBytes, failing with too-large the moment it goes over. */
function byteLimit(maxBytes: number, counter: { bytes: number }): Transform {
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      counter.bytes += chunk.length;
      if (counter.bytes > maxBytes) done(new DownloadError("too-large", `download exceeds ${maxBytes} bytes`));
      else done(null, chunk);
    },
  });
}

function classify(err: unknown, timeout: AbortSignal, caller?: AbortSignal): unknown {
  if (err instanceof DownloadError) return err;
  if (err instanceof UrlRefusedError) return new DownloadError("refused-url", err.message, { cause: err });
  if (caller?.aborted) return caller.reason ?? err;
  if (timeout.aborted) return new DownloadError("timeout", "download timed out", { cause: err });
  return new DownloadError("network", `download failed: ${(err as Error)?.message ?? String(err)}`, { cause: err });
}

/**
 * Downloads an http(s) URL to `dest` (tmp file + rename), vetting every URL in the redirect chain with
 * the URL guard and connecting only to the addresses it vetted; stops as soon as maxBytes is passed.
 */
export async function downloadToFile(url: string, dest: string, opts: DownloadOptions): Promise<{ bytes: number; contentType: string | null }> {
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([timeout, opts.signal]) : timeout;
  const maxRedirects = opts.maxRedirects ?? 5;
  await mkdir(path.dirname(dest), { recursive: true });
  const tmp = `${dest}.${randomBytes(6).toString("hex")}.part`;
  try {
    let current = url;
    for (let hop = 0; ; hop++) {
      const target = await checkUrl(current, { protocols: ["http", "https"], allowPrivate: opts.allowPrivate, allowedOrigins: opts.allowedOrigins, allowNetworks: opts.allowNetworks });
      const checked = target.url;
      signal.throwIfAborted();
      const res = await request(target, signal);
      const status = res.statusCode ?? 0;
      if (REDIRECTS.has(status) && res.headers.location) {
        res.resume();
        if (hop >= maxRedirects) throw new DownloadError("http-status", `more than ${maxRedirects} redirects`, { status });
        current = new URL(res.headers.location, checked).href;
        continue;
      }
      if (status < 200 || status >= 300) {
        res.resume();
        throw new DownloadError("http-status", `HTTP ${status} from ${checked.origin}${checked.pathname}`, { status });
      }
      const declared = Number(res.headers["content-length"]);
      if (Number.isFinite(declared) && declared > opts.maxBytes) {
        res.destroy();
        throw new DownloadError("too-large", `Content-Length ${declared} exceeds ${opts.maxBytes} bytes`);
      }
      const counter = { bytes: 0 };
      await pipeline(res, byteLimit(opts.maxBytes, counter), createWriteStream(tmp), { signal });
      if (Number.isFinite(declared) && counter.bytes !== declared) {
        throw new DownloadError("network", `connection closed after ${counter.bytes} of ${declared} bytes`);
      }
      await rename(tmp, dest);
      return { bytes: counter.bytes, contentType: res.headers["content-type"] ?? null };
    }
  } catch (err) {
    await rm(tmp, { force: true });
    throw classify(err, timeout, opts.signal);
  }
}
