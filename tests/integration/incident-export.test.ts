// The evidence zip of a large incident (issue 25 item 4): a file result with many REJECT frames, each a real
// ~1 MB JPEG on disk in the media store, exported through the incidents module the route calls. Memory stays flat
// while the zip is read (files are streamed one at a time), and concurrent exports are capped per account.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { after, describe, test } from "node:test";
import v8 from "node:v8";
import vm from "node:vm";
import { startTestService } from "../support/app";
import { waitFor } from "../support/net";
import { readZip } from "../support/zip";
import { getRegistry } from "../../server/registry";

const FRAMES = 120;

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;
const rss = () => process.memoryUsage().rss;

/** A noise JPEG (incompressible, ≈ 1 MB), hard-linked as every frame of a file result whose frames are all QR ads. */
async function seedLargeIncident(mediaRoot: string): Promise<{ requestId: string; bytes: number }> {
  const requestId = crypto.randomBytes(16).toString("hex");
  const dir = path.join(mediaRoot, requestId);
  await fs.mkdir(dir, { recursive: true });
  const first = path.join(dir, "f1.jpg");
  execFileSync("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "nullsrc=s=1280x720,geq=random(1)*255:random(2)*255:random(3)*255", "-frames:v", "1", "-q:v", "1", first]);
  for (let n = 2; n <= FRAMES; n++) await fs.link(first, path.join(dir, `f${n}.jpg`));
  const frameDetail = Array.from({ length: FRAMES }, (_, i) => ({
    requestId: `${requestId}_v${i + 1}`,
    time: i,
    riskLevel: "REJECT",
    riskLabel1: "ad",
    riskLabel2: "qrcode",
    riskLabel3: "",
    riskDescription: "广告:二维码",
    imgUrl: `/media/${requestId}/f${i + 1}.jpg`,
    auxInfo: { qrContent: "https://spam.example/large" },
  }));
  await getRegistry().incidents.feed({ kind: "file", requestId, body: { code: 1100, message: "Success", requestId, btId: "large-incident", frameDetail, audioDetail: [] } });
  return { requestId, bytes: (await fs.stat(first)).size * FRAMES };
}

describe("evidence export of a large incident", async () => {
  const svc = await startTestService({ env: { INCIDENT_GAP_SEC: "5" } });
  after(() => svc.close());
  const { requestId, bytes } = await seedLargeIncident(svc.engine!.ctx.mediaRoot);
  const [incident] = await getRegistry().incidents.list({ requestId }, "tester");

  test(`RSS grows by far less than the zip (${FRAMES} frames of ≈ 1 MB) while it is read a chunk at a time`, async () => {
    assert.equal(incident.hits, FRAMES);
    gc();
    const base = rss();
    let peak = base;
    const zip = await getRegistry().incidents.exportZip(incident.id, "mem-user");
    assert.ok(zip && "body" in zip);
    peak = Math.max(peak, rss());
    const chunks: Buffer[] = [];
    let size = 0;
    const reader = zip.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      // keep only what the checks below need (the headers, incident.json at the end): a client writes the rest to disk
      if (chunks.length < 4 || size > bytes) chunks.push(Buffer.from(value));
      peak = Math.max(peak, rss());
      await new Promise((r) => setImmediate(r)); // a reader that lets the event loop run between chunks
    }
    const growthMb = (peak - base) / 2 ** 20;
    console.log(`# zip ${(size / 2 ** 20).toFixed(0)} MB, RSS growth ${growthMb.toFixed(1)} MB`);
    assert.ok(size > bytes, "every frame is in the zip");
    assert.ok(growthMb < 40, `RSS grew ${growthMb.toFixed(1)} MB for a ${(size / 2 ** 20).toFixed(0)} MB zip: frames are held in memory`);
    await waitFor(async () => getRegistry().incidents.exportsRunning("mem-user") === 0, 10_000, 20);
  });

  test("the zip holds every frame as JPEG and incident.json lists them, with bodies", async () => {
    const zip = await getRegistry().incidents.exportZip(incident.id, "zip-user");
    assert.ok(zip && "body" in zip);
    const entries = readZip(Buffer.from(await new Response(zip.body).arrayBuffer()));
    const frames = [...entries.keys()].filter((n) => n.startsWith("frames/"));
    assert.equal(frames.length, FRAMES);
    assert.deepEqual([...entries.get(frames[FRAMES - 1])!.subarray(0, 3)], [0xff, 0xd8, 0xff]);
    const doc = JSON.parse(entries.get("incident.json")!.toString("utf8"));
    assert.equal(doc.incident.id, incident.id);
    assert.equal(doc.hits.length, FRAMES);
    assert.deepEqual(doc.hits.map((h: { file: string }) => h.file), frames);
    assert.equal(doc.hits[7].resultBody.requestId, `${requestId}_v8`, "each hit with the contract body it came from");
    assert.deepEqual(doc.missing, []);
  });

  test("concurrent exports: at most 3 per account (export_busy past it); a cancelled or finished download frees its slot", async () => {
    const { incidents } = getRegistry();
    const one = await incidents.exportZip(incident.id, "alice");
    const two = await incidents.exportZip(incident.id, "alice");
    const three = await incidents.exportZip(incident.id, "alice");
    assert.ok(one && "body" in one && two && "body" in two && three && "body" in three);
    const fourth = await incidents.exportZip(incident.id, "alice");
    assert.ok(fourth && "busy" in fourth, "a fourth one waits");
    assert.match(fourth.busy, /you already have 3 evidence exports running \(at most 3 at once\)/);
    const bob = await incidents.exportZip(incident.id, "bob");
    assert.ok(bob && "body" in bob, "another account is not affected");
    await bob.body.cancel();
    // a client that goes away (the route's body is cancelled) gives its slot back
    const reader = one.body.getReader();
    await reader.read();
    await reader.cancel();
    await waitFor(async () => incidents.exportsRunning("alice") === 2, 10_000, 20);
    const again = await incidents.exportZip(incident.id, "alice");
    assert.ok(again && "body" in again);
    await three.body.cancel();
    await Promise.all([new Response(two.body).arrayBuffer(), new Response(again.body).arrayBuffer()]);
    await waitFor(async () => incidents.exportsRunning("alice") === 0 && incidents.exportsRunning("bob") === 0, 10_000, 20);
    assert.equal(await incidents.exportZip("0000000000000000", "alice"), null, "an unknown incident holds no slot");
    assert.equal(incidents.exportsRunning("alice"), 0);
  });
});
