// Reference-list uploads of a few MB (issue 25.8): the route handler's own check (guard()) reads the rule of the
// request's real path, `/api/lists/<kind>` (the 50 MB upload rule the gate applies), not the one of its template
// `/api/lists/[kind]` (64 KB), which refused a 66,848-byte JPEG with 413 `x-mp-refused-by: handler`. A real service
// with its detectors, the real route handler, a real session; files generated with ffmpeg.
import assert from "node:assert/strict";
import fs from "node:fs/promises";
import path from "node:path";
import { after, before, test } from "node:test";
import sharp from "sharp";
import { createAuth } from "../../server/auth";
import { accessRule, bodyLimit, UPLOAD_BODY_MAX } from "../../server/auth/access";
import { runFfmpeg } from "../../server/ingest/ffmpeg";
import { CSRF_HEADER, IDENTITY_HEADERS } from "../../lib/roles";
import { startTestService } from "../support/app";
import { mediaDir } from "../support/media";

type Handler = (req: Request, ctx: { params: Promise<{ kind: string }> }) => Promise<Response>;
const HUMAN_ASSETS = path.resolve("node_modules/@vladmandic/human/assets");

let svc: Awaited<ReturnType<typeof startTestService>>;
let headers: Record<string, string>;
let handler: Record<string, Handler>;
const files: Record<"faces" | "images" | "audio", string> = { faces: "", images: "", audio: "" };

before(async () => {
  svc = await startTestService();
  // a supervisor's session in the service's own store (the handler checks it as the gate would have)
  const auth = await createAuth({ store: svc.engine!.ctx.store, dataDir: svc.dataDir, sessionSecret: null, sessionTtlHours: 1, initialPassword: "supervisor-pass-1", log: () => undefined });
  await auth.bootstrap();
  const s = await auth.signIn("admin", "supervisor-pass-1", "127.0.0.1", null);
  const session = (await auth.session(s.cookie))!;
  headers = { cookie: `mp_session=${encodeURIComponent(s.cookie)}`, [IDENTITY_HEADERS.id]: s.user.id, [IDENTITY_HEADERS.session]: session.id, [IDENTITY_HEADERS.role]: "supervisor", [CSRF_HEADER]: s.csrfToken };
  handler = (await import(path.resolve("app/api/lists/[kind]/route.ts"))) as Record<string, Handler>;
  // a portrait enlarged to 2400 px with grain, a 2400×1600 busy picture, 20 s of stereo 44.1 kHz audio: each a few MB
  const dir = mediaDir();
  const portrait = path.join(dir, "upload-portrait.png");
  await sharp(path.join(HUMAN_ASSETS, "screenshot-facedetect.jpg")).extract({ left: 0, top: 330, width: 170, height: 170 }).resize(320).extend({ top: 80, bottom: 80, left: 80, right: 80, background: "#000" }).png().toFile(portrait);
  files.faces = path.join(dir, "upload-face-2400.jpg");
  files.images = path.join(dir, "upload-image-2400.jpg");
  files.audio = path.join(dir, "upload-track-20s.wav");
  await runFfmpeg(["-y", "-i", portrait, "-vf", "scale=2400:2400:flags=bicubic,noise=alls=12:allf=u", "-q:v", "1", files.faces]);
  await runFfmpeg(["-y", "-f", "lavfi", "-i", "testsrc2=size=2400x1600", "-vf", "noise=alls=30:allf=u", "-frames:v", "1", "-q:v", "1", files.images]);
  await runFfmpeg(["-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=20", "-f", "lavfi", "-i", "anoisesrc=d=20:a=0.05", "-filter_complex", "[0][1]amix=inputs=2,aformat=channel_layouts=stereo", "-ar", "44100", files.audio]);
});

after(async () => {
  await svc?.close();
});

/** The multipart body a browser sends, with its exact Content-Length (what guard() checks). */
async function upload(kind: string, list: string, entry: string, file: string): Promise<Response> {
  const form = new FormData();
  form.set("list", list);
  form.set("entry", entry);
  form.set("file", new Blob([await fs.readFile(file)]), path.basename(file));
  const encoded = new Response(form);
  const body = new Uint8Array(await encoded.arrayBuffer());
  const req = new Request(`http://127.0.0.1/api/lists/${kind}`, { method: "POST", headers: { ...headers, "content-type": encoded.headers.get("content-type")!, "content-length": String(body.length) }, body });
  return handler.POST(req, { params: Promise.resolve({ kind }) });
}

test("the handler applies the upload rule of the real path, as the gate does", () => {
  for (const kind of ["faces", "images", "audio"]) assert.equal(bodyLimit(accessRule("POST", `/api/lists/${kind}`)), UPLOAD_BODY_MAX);
  assert.equal(bodyLimit(accessRule("POST", "/api/lists/x")), 64 * 1024, "the template's own rule is the JSON one");
});

for (const [kind, list, entry, min] of [
  ["faces", "politicians", "Vladimir Mandic", /face added/],
  ["images", "prohibited", "busy pattern", /image hashed/],
  ["audio", "banned_songs", "tone and noise", /track fingerprinted/],
] as const) {
  test(`an upload of a few MB to the ${kind} list is accepted by the handler and lands in its list`, async () => {
    const size = (await fs.stat(files[kind])).size;
    assert.ok(size > 1_500_000, `${files[kind]} is ${size} bytes`);
    const res = await upload(kind, list, entry, files[kind]);
    const text = await res.text();
    assert.equal(res.headers.get("x-mp-refused-by"), null, text);
    assert.equal(res.status, 200, text);
    assert.match(JSON.parse(text).message, min);
    const all = await svc.engine!.lists.all();
    assert.ok(all[kind].entries.some((e) => e.list === list && e.entry === entry), JSON.stringify(all[kind].entries));
  });
}

test("over the upload cap the handler still refuses by itself (413, before reading)", async () => {
  const req = new Request("http://127.0.0.1/api/lists/images", { method: "POST", headers: { ...headers, "content-type": "multipart/form-data; boundary=x", "content-length": String(UPLOAD_BODY_MAX + 1) }, body: "--x--" });
  const res = await handler.POST(req, { params: Promise.resolve({ kind: "images" }) });
  assert.equal(res.status, 413);
  assert.equal(res.headers.get("x-mp-refused-by"), "handler");
  // a DELETE on the same route keeps the JSON cap
  const del = await handler.DELETE(new Request("http://127.0.0.1/api/lists/images?list=prohibited&entry=x", { method: "DELETE", headers: { ...headers, "content-length": String(65 * 1024) } }), { params: Promise.resolve({ kind: "images" }) });
  assert.equal(del.status, 413);
});
