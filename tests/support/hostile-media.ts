// A corpus of hostile media, generated at test time (small; nothing binary is committed), and two hostile
// origins: one that streams forever, one that stalls in the middle of a body.
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { copyFile, readFile, rename, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import zlib from "node:zlib";
import { runFfmpeg } from "../../server/ingest/ffmpeg";
import { makeCorruptFile, mediaDir } from "./media";

export interface HostileCorpus {
  /** mp4 with its index at the end, cut in half: no moov atom */
  truncatedMp4: string;
  /** seeded random bytes under an .mp4 name */
  garbageMp4: string;
  /** zero bytes */
  emptyMp4: string;
  /** a PNG whose header says 20000×20000 (a few hundred bytes: the pixels are never there) */
  hugePng: string;
  /** a real 2560×1440 video (over a 1920×1080 MEDIA_MAX_* cap) */
  bigVideo: string;
  /** faststart mp4 cut right after the mdat header: streams and duration declared, no media data */
  headerOnlyMp4: string;
  /** AAC audio, no video */
  audioOnly: string;
  /** mkv of 2 s whose Segment duration claims 100 hours */
  lyingDurationMkv: string;
  /** a plain, valid 2 s video (the control: it must still complete after the others) */
  normal: string;
}

const write = async (file: string, bytes: Buffer) => {
  const tmp = `${file}.${randomBytes(4).toString("hex")}.part`;
  await writeFile(tmp, bytes);
  await rename(tmp, file);
  return file;
};

async function generate(file: string, args: string[]): Promise<string> {
  if (existsSync(file)) return file;
  const tmp = `${file}.${randomBytes(4).toString("hex")}${path.extname(file)}`;
  await runFfmpeg([...args, "-y", tmp], { timeoutMs: 60_000 });
  await rename(tmp, file);
  return file;
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A well-formed PNG header for width×height RGB, with only the first row's pixels. */
export function pngHeaderOnly(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, deflate, no filter, no interlace
  const firstRow = zlib.deflateSync(Buffer.alloc(1 + width * 3));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk("IHDR", ihdr), pngChunk("IDAT", firstRow), pngChunk("IEND", Buffer.alloc(0))]);
}

/** Offset of the first top-level box of `type` in an ISO-BMFF file. */
function boxOffset(buf: Buffer, type: string): number {
  for (let at = 0; at + 8 <= buf.length; ) {
    let size = buf.readUInt32BE(at);
    if (buf.toString("latin1", at + 4, at + 8) === type) return at;
    if (size === 1) size = Number(buf.readBigUInt64BE(at + 8));
    if (size < 8) break;
    at += size;
  }
  throw new Error(`no ${type} box`);
}

/** Rewrites the 8-byte float of the first matroska Duration element (0x4489, size 0x88). */
function patchMkvDuration(buf: Buffer, value: number): Buffer {
  const at = buf.indexOf(Buffer.from([0x44, 0x89, 0x88]));
  if (at < 0) throw new Error("no 8-byte Duration element");
  const out = Buffer.from(buf);
  out.writeDoubleBE(value, at + 3);
  return out;
}

/** Builds (or reuses, in tests/.media) every file of the corpus. */
export async function makeHostileCorpus(): Promise<HostileCorpus> {
  const dir = path.join(mediaDir(), "hostile");
  const { mkdir } = await import("node:fs/promises");
  await mkdir(dir, { recursive: true });
  const f = (name: string) => path.join(dir, name);
  const testsrc = (size: string, d: number) => ["-f", "lavfi", "-i", `testsrc2=size=${size}:rate=25:duration=${d}`];
  const tone = (d: number) => ["-f", "lavfi", "-i", `sine=frequency=440:sample_rate=44100:duration=${d}`];

  const normal = await generate(f("normal.mp4"), [...testsrc("320x180", 2), ...tone(2), "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", "-movflags", "+faststart"]);
  // index (moov) at the end, as a camera or a plain ffmpeg run writes it; the first half has no moov
  const tailIndexed = await generate(f("tail-indexed.mp4"), [...testsrc("320x180", 4), ...tone(4), "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest"]);
  const truncatedMp4 = f("truncated.mp4");
  if (!existsSync(truncatedMp4)) {
    const whole = await readFile(tailIndexed);
    await write(truncatedMp4, whole.subarray(0, Math.floor(whole.length / 2)));
  }
  const garbageMp4 = f("garbage.mp4");
  if (!existsSync(garbageMp4)) await copyFile(await makeCorruptFile("hostile-garbage.mp4"), garbageMp4);
  const emptyMp4 = f("empty.mp4");
  if (!existsSync(emptyMp4)) await write(emptyMp4, Buffer.alloc(0));
  const hugePng = f("huge-20000x20000.png");
  if (!existsSync(hugePng)) await write(hugePng, pngHeaderOnly(20000, 20000));
  const bigVideo = await generate(f("big-2560x1440.mp4"), ["-f", "lavfi", "-i", "color=c=gray:size=2560x1440:rate=5:duration=1", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-movflags", "+faststart"]);
  const headerOnlyMp4 = f("header-only.mp4");
  if (!existsSync(headerOnlyMp4)) {
    const whole = await readFile(normal);
    await write(headerOnlyMp4, whole.subarray(0, boxOffset(whole, "mdat") + 8));
  }
  const audioOnly = await generate(f("audio-only.m4a"), [...tone(3), "-c:a", "aac"]);
  const honestMkv = await generate(f("honest.mkv"), [...testsrc("320x180", 2), "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"]);
  const lyingDurationMkv = f("lying-duration.mkv");
  if (!existsSync(lyingDurationMkv)) await write(lyingDurationMkv, patchMkvDuration(await readFile(honestMkv), 100 * 3600 * 1000)); // ms (TimecodeScale 1 ms)
  return { truncatedMp4, garbageMp4, emptyMp4, hugePng, bigVideo, headerOnlyMp4, audioOnly, lyingDurationMkv, normal };
}

/**
 * Hostile origins on 127.0.0.1: `/endless` streams random bytes forever (no Content-Length); `/stall?file=<path>`
 * declares the file's full length, sends half of it and then nothing, holding the connection open.
 */
export async function startHostileOrigin(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(async (req, res) => {
    const u = new URL(req.url ?? "/", "http://x");
    if (u.pathname === "/endless") {
      res.writeHead(200, { "content-type": "video/mp4" });
      const chunk = randomBytes(64 * 1024);
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once("drain", pump);
      };
      pump();
      return;
    }
    if (u.pathname === "/stall") {
      const whole = await readFile(u.searchParams.get("file") ?? "");
      res.writeHead(200, { "content-type": "video/mp4", "content-length": whole.length });
      res.write(whole.subarray(0, Math.floor(whole.length / 2)));
      return; // never ends
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  server.unref();
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
