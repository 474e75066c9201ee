// Uploads (#31 item 1): a multipart body is streamed to disk with its limits; the signed link serves it only
// untampered and unexpired; bad bodies get clear 4xx answers and leave nothing behind.
import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { createUploads, safeName } from "../../server/dashboard/uploads";

const root = await mkdtemp(path.join(os.tmpdir(), "uploads-"));
after(() => rm(root, { recursive: true, force: true }));
const uploads = createUploads({ mediaRoot: root, secret: Buffer.from("k".repeat(32)), maxBytes: 1024 * 1024 });

const formReq = (parts: Array<[string, string | Blob, string?]>) => {
  const form = new FormData();
  for (const [name, value, filename] of parts) if (typeof value === "string") form.append(name, value);
  else form.append(name, value, filename);
  return new Request("http://x/api/files", { method: "POST", body: form });
};

test("a file and its settings: stored on disk whole; the link serves exactly it", async () => {
  const bytes = Buffer.alloc(300_000, 7);
  const got = await uploads.receive(formReq([["input", JSON.stringify({ captureMode: "keyframes" })], ["file", new Blob([bytes]), "../../etc/My clip (1).mp4"]]));
  assert.ok(got.ok, JSON.stringify(got));
  assert.equal(got.file.name, "My_clip_1_.mp4", "never a path");
  assert.equal(got.file.size, bytes.length);
  assert.deepEqual(got.input, { captureMode: "keyframes" });
  assert.deepEqual(await readFile(got.file.path), bytes);
  const link = new URL(uploads.link("http://127.0.0.1:1", got.file));
  assert.match(link.pathname, /^\/api\/uploads\/upload-[0-9a-f]{16}\/My_clip_1_\.mp4$/);
  const ok = await uploads.serve(link, got.file.id, got.file.name);
  assert.equal(ok.status, 200);
  assert.equal(ok.headers.get("x-content-type-options"), "nosniff");
  assert.deepEqual(Buffer.from(await ok.arrayBuffer()), bytes);
  // tampered signature, another name, an expired link: refused
  const bad = new URL(link);
  bad.searchParams.set("sig", "A".repeat(32));
  assert.equal((await uploads.serve(bad, got.file.id, got.file.name)).status, 403);
  assert.equal((await uploads.serve(link, got.file.id, "other.mp4")).status, 403);
  const old = new URL(link);
  old.searchParams.set("exp", "1000");
  assert.equal((await uploads.serve(old, got.file.id, got.file.name)).status, 403);
  assert.equal((await uploads.serve(link, "../x", got.file.name)).status, 403);
});

test("refusals: too large (413), no file, no input, bad JSON, empty file, not multipart; nothing left on disk", async () => {
  const before = (await readdir(root)).length;
  const big = await uploads.receive(formReq([["input", "{}"], ["file", new Blob([Buffer.alloc(1024 * 1024 + 10)]), "big.mp4"]]));
  assert.deepEqual([big.ok, !big.ok && big.status], [false, 413]);
  assert.match(!big.ok ? big.error : "", /UPLOAD_MAX_MB \(1 MB\)/);
  for (const [parts, re] of [
    [[["input", "{}"]], /no `file` part/],
    [[["file", new Blob(["x"]), "a.mp4"]], /no `input` part/],
    [[["input", "{nope"], ["file", new Blob(["x"]), "a.mp4"]], /not valid JSON/],
    [[["input", "{}"], ["file", new Blob([]), "a.mp4"]], /empty/],
  ] as const) {
    const r = await uploads.receive(formReq(parts as unknown as Array<[string, string | Blob, string?]>));
    assert.ok(!r.ok && r.status === 400 && re.test(r.error), JSON.stringify(r));
  }
  const json = await uploads.receive(new Request("http://x/api/files", { method: "POST", body: "{}", headers: { "content-type": "application/json" } }));
  assert.ok(!json.ok && json.status === 400);
  assert.equal((await readdir(root)).length, before, "refused uploads leave no folder");
  assert.equal(safeName(""), "upload.bin");
  assert.equal(safeName("..."), "upload.bin");
});
