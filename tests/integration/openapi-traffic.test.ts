// The OpenAPI document describes what the server really sends: every callback body of real runs (video stream
// frames, audio segments and both stream-ends; audio stream segments and stream-end; video file results) and
// every Query answer (1100, 1101, 1902, 1905) validates against the schemas of GET /openapi.json, with the
// signature headers documented; the document's servers never echo the request's Host; Redocly's recommended
// ruleset finds no error. Rarely produced extension fields (hash-bank, gallery and known-audio matches, age)
// are checked on bodies built by the server's own builders.
import assert from "node:assert/strict";
import http from "node:http";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { buildOpenApi } from "../../lib/contract/openapi";
import { verifyWebhook } from "../../server/callback/signature";
import { buildVerdict } from "../../server/detect/verdict";
import { buildAudioVerdict } from "../../server/detect/audio/verdict";
import { buildAudioItem, buildFileResult, buildFrameItem } from "../../server/task/file-result";
import { audioStreamEnd, audioStreamSegmentResult, frameResult, videoStreamAudioResult, videoStreamEnd } from "../../server/task/stream-callbacks";
import { withoutPassThrough } from "../../server/task/video-file";
import { startRtmpSource, type RtmpSource } from "../support/live-sources";
import { makeCorruptFile, makeVideo, mediaDir, startStaticServer } from "../support/media";
import { startTestService, TEST_KEY } from "../support/app";
import { startReceiver, waitFor, type Received } from "../support/net";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Doc = Json;

const SECRET = "whsec_" + Buffer.from("openapi-traffic-test-secret").toString("base64");
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

/** A validator per schema of the document (JSON Schema 2020-12, the document's dialect). */
function validatorsOf(doc: Doc) {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, allowUnionTypes: true });
  addFormats(ajv);
  const cache = new Map<object, ValidateFunction>();
  const compile = (schema: object) => {
    let v = cache.get(schema);
    if (!v) cache.set(schema, (v = ajv.compile(schema)));
    return v;
  };
  const media = (o: Json) => o.content["application/json"].schema as object;
  return {
    webhook: (name: string) => compile(media(doc.webhooks[name].post.requestBody)),
    request: (p: string) => compile(media(doc.paths[p].post.requestBody)),
    response: (p: string) => compile(media(doc.paths[p].post.responses["200"])),
    header: (schema: object) => compile(schema),
  };
}

/** Every body must validate; failures are reported together, naming the body and the first errors. */
function assertAllValid(validate: ValidateFunction, bodies: Array<{ what: string; body: unknown }>) {
  const failures: string[] = [];
  for (const { what, body } of bodies) {
    if (!validate(body)) failures.push(`${what}: ${JSON.stringify(validate.errors?.slice(0, 4))}`);
  }
  assert.deepEqual(failures, [], `${failures.length} of ${bodies.length} bodies do not match the document`);
}

function getWithHost(url: string, host: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("error", reject);
  });
}

describe("OpenAPI document vs real traffic", async () => {
  const svc = await startTestService({ env: { MAX_CONCURRENT_STREAMS: "4", CALLBACK_SIGNING_SECRET: SECRET } });
  after(() => svc.close());
  let web: { url: string; close(): Promise<void> };
  let src: RtmpSource;
  let clip: string;
  let corrupt: string;
  before(async () => {
    // 4 s: a QR code during 0.5–1.8 s, ad text during 2.2–3.8 s, a tone throughout
    [clip, corrupt] = await Promise.all([
      makeVideo({ name: "openapi-clip", durationSec: 4, width: 960, height: 540, audio: "tone", qr: { text: "https://spam.example/buy-now", fromSec: 0.5, toSec: 1.8 }, text: { content: "Add WeChat: maifen888 cheap followers", fromSec: 2.2, toSec: 3.8 } }),
      makeCorruptFile("openapi-corrupt"),
    ]);
    web = await startStaticServer(mediaDir());
    src = await startRtmpSource({ name: "openapi-live", audio: "tone", qr: { text: "https://spam.example/live", fromSec: 0, toSec: 2 }, text: { content: "Add WeChat: maifen888 cheap followers", fromSec: 3, toSec: 5 } });
  });
  after(async () => {
    await src?.close();
    await web?.close();
  });

  test("every callback and Query answer of real runs validates against GET /openapi.json; headers documented; servers never from Host", { timeout: 120_000 }, async (t) => {
    const res = await fetch(`${svc.url}/openapi.json`);
    assert.equal(res.status, 200);
    const doc = (await res.json()) as Doc;
    const v = validatorsOf(doc);
    // no `x-` keyword inside any schema (Ajv's strict default refuses them); extensions are named at the top level
    const xInSchemas: string[] = [];
    const walk = (o: unknown, at: string, inSchema: boolean) => {
      if (!o || typeof o !== "object") return;
      for (const [k, val] of Object.entries(o)) {
        if (inSchema && k.startsWith("x-")) xInSchemas.push(`${at}/${k}`);
        walk(val, `${at}/${k}`, inSchema || k === "schema");
      }
    };
    walk(doc, "", false);
    assert.deepEqual(xInSchemas, []);
    assert.ok((doc["x-extension-fields"] as string[]).includes("notAppliedTypes"), "extension fields named");
    // the content types real vendor clients send (PHP demo: form; others text/plain) are documented
    for (const e of Object.values(doc.paths as Json)) assert.deepEqual(Object.keys(e.post.requestBody.content), ["application/json", "application/x-www-form-urlencoded", "text/plain"]);

    // Host is never echoed into the document (PUBLIC_BASE_URL is unset here: a relative server)
    const evil = await getWithHost(`${svc.url}/openapi.json`, "evil.example");
    assert.equal(evil.status, 200);
    assert.ok(!evil.text.includes("evil.example"), "the Host header is not echoed into the document");
    assert.deepEqual((JSON.parse(evil.text) as Doc).servers, [{ url: "/" }]);
    assert.deepEqual(doc.servers, [{ url: "/" }]);

    const rx = { img: await startReceiver(), audio: await startReceiver(), astream: await startReceiver(), file: await startReceiver() };
    const sent: Array<{ path: string; body: Json; answer: Json }> = [];
    const post = async (p: string, body: Json) => {
      let answer: Json;
      try {
        answer = (await svc.post(p, body)) as Json;
      } catch (err) {
        // a Query is idempotent: asked again once when the connection failed (a reused keep-alive socket the server just closed, on a loaded machine)
        if (p !== "/video/query/v4") throw err;
        t.diagnostic(`query retried after: ${(err as Error).message} (${String((err as { cause?: unknown }).cause)})`);
        answer = (await svc.post(p, body)) as Json;
      }
      sent.push({ path: p, body, answer });
      return answer;
    };
    const passThrough = { order: "o-1", nested: { n: 1 } };
    try {
      // live: one RTMP source moderated as a video stream and as an audio stream
      const vs = await post("/videostream/v4", {
        accessKey: TEST_KEY, appId: "default", eventId: "VIDEOSTREAM", imgType: "QRCODE_ADVERT_VIOLENT", audioType: "POLITY_MOAN",
        imgCallback: rx.img.url, audioCallback: rx.audio.url,
        data: { streamType: "NORMAL", url: src.rtmpUrl, btId: "vs-bt-1", tokenId: "u1", room: "room-1", detectFrequency: 1, returnAllImg: 1, returnAllText: 1, returnFinishInfo: 1, extra: { passThrough } },
      });
      assert.equal(vs.code, 1100, JSON.stringify(vs));
      const as = await post("/audiostream/v4", {
        accessKey: TEST_KEY, appId: "default", eventId: "default", type: "POLITY_MOAN_SING", callback: rx.astream.url, btId: "room-2",
        data: { url: src.rtmpUrl, tokenId: "u1", room: "room-2", returnAllText: 1, returnFinishInfo: 1, extra: { passThrough } },
      });
      assert.equal(as.code, 1100, JSON.stringify(as));

      // files: a clip (callback + Query 1100), a corrupt file (1905), a source that never answers (1101), an unknown btId (1902)
      const fileReq = (btId: string, url: string, extra: Json = {}) => ({
        accessKey: TEST_KEY, appId: "default", eventId: "video", imgType: "QRCODE_ADVERT_VIOLENT", audioType: "POLITY_MOAN", callback: rx.file.url, ...extra,
        data: { btId, tokenId: "u1", url, detectFrequency: 1, returnAllImg: 1, returnAllAudio: 1, extra: { passThrough } },
      });
      assert.equal((await post("/video/v4", fileReq("oa-clip", `${web.url}/${path.basename(clip)}`))).code, 1100);
      await post("/video/v4", fileReq("oa-clip", `${web.url}/${path.basename(clip)}`)); // same btId while queued/processing: answered with detail
      assert.equal((await post("/video/v4", fileReq("oa-corrupt", `${web.url}/${path.basename(corrupt)}`))).code, 1100);
      assert.equal((await post("/video/v4", fileReq("oa-hang", `${web.url}/__hang`, { callback: undefined }))).code, 1100);
      const q1101 = await post("/video/query/v4", { accessKey: TEST_KEY, btId: "oa-hang" });
      assert.equal(q1101.code, 1101, JSON.stringify(q1101));
      const q1902 = await post("/video/query/v4", { accessKey: TEST_KEY, btId: "oa-no-such-file" });
      assert.equal(q1902.code, 1902);
      const answerOf = async (btId: string) => waitFor(async () => {
        const q = await post("/video/query/v4", { accessKey: TEST_KEY, btId });
        return q.code === 1101 ? null : q;
      }, 90_000, 250);
      const [q1100, q1905] = await Promise.all([answerOf("oa-clip"), answerOf("oa-corrupt")]);
      assert.equal(q1100.code, 1100, JSON.stringify(q1100).slice(0, 300));
      assert.equal(q1905.code, 1905, JSON.stringify(q1905));

      // streams: two frames (one with OCR text), an audio segment on both products, then Close → stream-ends
      const results = (r: Received[]) => r.filter((x) => x.body.statCode === 0);
      await rx.img.until((r) => results(r).length >= 2 && results(r).some((x) => (x.body as Json).frameDetail?.imgText), 60_000);
      await Promise.all([rx.audio.until((r) => results(r).length >= 1, 60_000), rx.astream.until((r) => results(r).length >= 1, 60_000)]);
      assert.equal((await post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: vs.requestId })).code, 1100);
      assert.equal((await post("/finish_audiostream/v4", { accessKey: TEST_KEY, requestId: as.requestId })).code, 1100);
      await post("/finish_videostream/v4", { accessKey: "not-a-key", requestId: vs.requestId }); // 9101
      const ends = (r: Received[]) => r.filter((x) => x.body.statCode === 1);
      await Promise.all([rx.img.until((r) => ends(r).length >= 1, 30_000), rx.audio.until((r) => ends(r).length >= 1, 30_000), rx.astream.until((r) => ends(r).length >= 1, 30_000)]);
      await rx.file.until((r) => r.length >= 2, 30_000);

      // every kind was produced by the real runs
      const got = (r: Received[], pred: (b: Json) => boolean) => r.map((x) => x.body as Json).filter(pred);
      assert.ok(got(rx.img.received, (b) => b.statCode === 0 && b.contentType === 1 && b.frameDetail.auxInfo.notAppliedTypes?.includes("VIOLENT")).length >= 1, "frames (with notAppliedTypes)");
      const listMatch = (f: Json) => f?.allLabels?.some((l: Json) => l.riskDetail?.ocrText?.matchedLists?.[0]?.words?.[0]?.entry !== undefined);
      assert.ok(q1100.frameDetail.some(listMatch) || got(rx.img.received, (b) => listMatch(b.frameDetail)).length >= 1, "a frame with OCR list matches (words[].entry)");
      assert.equal(got(rx.img.received, (b) => b.statCode === 1 && b.contentType === 1).length, 1, "image stream-end");
      assert.ok(got(rx.audio.received, (b) => b.statCode === 0 && b.contentType === 2 && b.audioDetail.vadCode === 0).length >= 1, "video stream audio segments");
      assert.equal(got(rx.audio.received, (b) => b.statCode === 1 && b.contentType === 2).length, 1, "audio stream-end of the video stream");
      // the video stream's data.btId (vendor demos send it) is echoed in every frame and segment result, as the contract notes say
      for (const r of [rx.img, rx.audio]) assert.deepEqual([...new Set(got(r.received, (b) => b.statCode === 0).map((b) => b.btId))], ["vs-bt-1"], "btId echoed in results");
      assert.ok(got(rx.astream.received, (b) => b.statCode === 0 && b.audioDetail.auxInfo.notAppliedTypes !== undefined).length >= 1, "audio stream segments");
      assert.equal(got(rx.astream.received, (b) => b.statCode === 1).length, 1, "audio stream end");
      assert.deepEqual(got(rx.file.received, () => true).map((b) => b.code).sort(), [1100, 1905], "file callbacks");
      assert.ok(q1100.auxInfo.notAppliedTypes.includes("VIOLENT") && q1100.audioDetail.every((a: Json) => a.vadCode === 0), "Query 1100 carries the extensions");
      assert.ok(q1100.frameDetail.some((f: Json) => /maifen888/i.test(f.imgText ?? "")), "the clip's ad text was read");

      // the bodies validate against the document's own schemas
      const bodies = (r: Received[]) => r.map((x, i) => ({ what: `#${i} ${JSON.stringify(x.body).slice(0, 80)}`, body: x.body }));
      assertAllValid(v.webhook("videoStreamImgCallback"), bodies(rx.img.received));
      assertAllValid(v.webhook("videoStreamAudioCallback"), bodies(rx.audio.received));
      assertAllValid(v.webhook("audioStreamCallback"), bodies(rx.astream.received));
      assertAllValid(v.webhook("videoFileCallback"), bodies(rx.file.received));
      // Query answers (1100, 1101, 1902, 1905, …) and every other answer and request of this run
      assertAllValid(v.response("/video/query/v4"), [q1100, q1101, q1902, q1905].map((body) => ({ what: `query ${body.code}`, body })));
      for (const s of sent) {
        assertAllValid(v.response(s.path), [{ what: `${s.path} answer ${JSON.stringify(s.answer).slice(0, 120)}`, body: s.answer }]);
        assertAllValid(v.request(s.path), [{ what: `${s.path} request`, body: JSON.parse(JSON.stringify(s.body)) }]);
      }

      // the signature headers are documented on every webhook, and every callback carries them
      const all = [...rx.img.received, ...rx.audio.received, ...rx.astream.received, ...rx.file.received];
      assert.ok(doc.components.securitySchemes.webhookSignature, "security scheme for the signature");
      assert.match(doc.components.securitySchemes.webhookSignature.description, /Standard Webhooks/);
      for (const [name, hook] of Object.entries(doc.webhooks as Json)) {
        const params = hook.post.parameters as Json[];
        const named = new Map(params.filter((p) => p.in === "header").map((p) => [p.name, p]));
        for (const h of ["webhook-id", "webhook-timestamp", "webhook-signature"]) assert.ok(named.has(h), `${name} documents ${h}`);
        assert.deepEqual(hook.post.security, [{ webhookSignature: [] }, {}], `${name} refers to the signing scheme`);
        for (const x of all) {
          for (const [h, p] of named) {
            const value = x.headers[h];
            if (p.required) assert.ok(value !== undefined, `${h} is sent`);
            if (value !== undefined) assert.ok(v.header(p.schema)(value), `${h}: ${value} matches its documented schema`);
          }
          for (const h of Object.keys(x.headers).filter((k) => k.startsWith("webhook-"))) assert.ok(named.has(h), `${h} is documented`);
        }
      }
      t.diagnostic(`${all.length} callbacks, ${sent.length} requests and their answers validated; signatures checked`);
      for (const x of all) {
        const check = verifyWebhook(SECRET, { get: (n) => (x.headers[n] as string | undefined) ?? null }, x.raw);
        assert.ok(check.ok, JSON.stringify(check));
      }
    } finally {
      await Promise.all(Object.values(rx).map((r) => r.close()));
    }
  });

  test("Redocly's recommended rules find no error in the document", async () => {
    const text = await (await fetch(`${svc.url}/openapi.json`)).text();
    const config = await createConfig({ extends: ["recommended"] });
    const problems = await lintFromString({ source: text, absoluteRef: path.join(process.cwd(), "openapi.json"), config });
    const errors = problems.filter((p) => p.severity === "error");
    assert.deepEqual(errors.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`), []);
    // the warnings left are deliberate: no license (a private service) and no 4XX (every handled request answers 200 with a business code)
    assert.deepEqual([...new Set(problems.map((p) => p.ruleId))].sort(), ["info-license", "operation-4xx-response"].filter((r) => problems.some((p) => p.ruleId === r)));
  });
});

test("servers: PUBLIC_BASE_URL when configured, a relative server otherwise", () => {
  assert.deepEqual(buildOpenApi({ serverUrl: "https://moderation.example.com/" }).servers, [{ url: "https://moderation.example.com" }]);
  assert.deepEqual(buildOpenApi({ serverUrl: null }).servers, [{ url: "/" }]);
  assert.deepEqual(buildOpenApi().servers, [{ url: "/" }]);
});

test("rarely produced extensions (hash-bank, gallery and known-audio matches, age, song tag, pull errors) are documented", () => {
  const doc = JSON.parse(JSON.stringify(buildOpenApi({ serverUrl: null }))) as Doc;
  const v = validatorsOf(doc);
  const face = { id: "0", name: "someone", location: [1, 2, 30, 40] as [number, number, number, number], probability: 0.9, face_ratio: 0.1 };
  const word = { word: "maifen888", position: [10, 19] as [number, number], entry: "maifen888" };
  const frame = buildVerdict({
    lang: "en",
    text: "Add WeChat maifen888",
    hits: [
      { imgType: "VIOLENT", riskLevel: "REJECT", labels: ["prohibited", "jinjitupian", "bank"], probability: 0.95, riskSource: 1002, hashMatch: { list: "bank", entry: "e1", distance: 3, trimmed: true } },
      { imgType: "POLITY", riskLevel: "REJECT", labels: ["politics", "zhengzhirenwu", "someone"], probability: 0.9, riskSource: 1002, faces: [face] },
      { imgType: "ADVERT", riskLevel: "REVIEW", labels: ["ad", "weixin", "wx"], probability: 0.8, riskSource: 1001, matchedLists: [{ name: "ads", words: [word] }], riskSegments: [{ segment: "Add WeChat maifen888", position: [0, 19] }] },
      { imgType: "QRCODE", riskLevel: "REVIEW", labels: ["qr", "erweima", "erweima"], probability: 1, riskSource: 1002, objects: [{ id: "0", name: "qrcode", location: [1, 1, 9, 9], probability: 1, qrContent: "https://x.example" }] },
    ],
    business: [
      { labels: ["face", "nianling", "child"], probability: 0.9, confidenceLevel: 2, detail: { faces: [face], face_num: 1, age: 12.5 } },
      { labels: ["publicfigure", "mingren", "someone"], probability: 0.9, confidenceLevel: 1, detail: { faces: [face], face_num: 1, match: { list: "publicfigure", entry: "someone", similarity: 0.81 } } },
      { labels: ["object", "dongwu", "mao"], probability: 0.7, confidenceLevel: 0, detail: { objects: [{ id: "0", name: "cat", location: [1, 1, 5, 5], probability: 0.7 }] } },
    ],
    qrObjects: [{ id: "0", name: "qrcode", location: [1, 1, 9, 9], probability: 1, qrContent: "https://x.example" }],
    faces: { faces: [face], faceNum: 3 },
    persons: { persons: [{ id: "0", location: [0, 0, 10, 10], probability: 0.8, person_ratio: 0.2 }], personNum: 1 },
    applied: ["VIOLENT"],
    notApplied: ["EROTIC"],
    timingsMs: { ocr: 1 },
    scores: { nsfw: { Neutral: 1 } },
  });
  const segment = buildAudioVerdict({
    lang: "zh",
    vadCode: 1,
    silent: false,
    text: "buy cheap followers",
    segmentText: "buy cheap followers",
    hits: [
      { type: "ANTHEN", riskLevel: "REJECT", labels: ["politics", "guoge", "anthem"], probability: 0.97, riskSource: 1003, match: { list: "ANTHEN", entry: "anthem", offsetSec: 12.01, score: 0.97 } },
      { type: "ADVERT", riskLevel: "REVIEW", labels: ["ad", "guanggao", "fans"], probability: 0.6, riskSource: 1001, matchedLists: [{ name: "ads", words: [{ word: "cheap followers", position: [4, 19], entry: "cheap followers" }] }], riskSegments: [{ segment: "buy cheap followers", position: [0, 19] }] },
    ],
    song: { value: 1, probability: 0.9, tag: true, business: ["sing", "changge", "changge"] },
    confidenceLevels: [0.5, 0.8],
    applied: ["ANTHEN"],
    notApplied: ["MOAN"],
    timingsMs: {},
  });
  const at = new Date(2026, 0, 2, 3, 4, 5, 6);
  const seg = { taskId: "t".repeat(32), index: 3, audioUrl: "https://m.example/a.wav", verdict: segment, preAudioUrl: "https://m.example/pre.wav", startedAt: at, endedAt: at, begin: 1, finish: 2, room: "r", passThrough: { k: "v" } };
  // a segment called back unchecked (auxInfo.detectType 2, when the stream code marks it so)
  const unchecked = { ...seg, detected: false };
  const frameBody = frameResult({ taskId: "t".repeat(32), index: 7, imgUrl: "https://m.example/f.jpg", verdict: frame, detected: true, stepped: true, capturedAt: at, begin: 1, finish: 2, room: "r", passThrough: { k: "v" } });
  const frameItem = buildFrameItem("t".repeat(32), { index: 7, timeSec: 6.5 } as Parameters<typeof buildFrameItem>[1], frame, "https://m.example/f.jpg", 0.5, ["ADVERT", "VIOLENT"]);
  const audioItem = buildAudioItem("t".repeat(32), { index: 1, startSec: 0, endSec: 10 } as Parameters<typeof buildAudioItem>[1], "https://m.example/a.wav", segment);
  const file = buildFileResult({ requestId: "t".repeat(32), btId: "b", riskLevel: "REJECT", frames: [frameItem], audio: [audioItem], returnAllImg: true, returnAllAudio: true, billingImgNum: 1, billingAudioDuration: 10, time: 10, passThrough: { k: "v" }, notAppliedTypes: ["EROTIC"] });
  const requestParams = { url: "rtmp://x.example/live/a" };

  // the extensions are really in these bodies
  assert.ok(frameBody.frameDetail.riskDetail.hashMatch && (frameBody.frameDetail.businessLabels[0].businessDetail as Json).age && (frameBody.frameDetail.businessLabels[1].businessDetail as Json).match);
  assert.ok((audioItem.riskDetail as Json).matchedTrack);

  assertAllValid(v.webhook("videoStreamImgCallback"), [
    { what: "frame", body: frameBody },
    { what: "image stream-end after a pull failure", body: videoStreamEnd({ taskId: "t", contentType: 1, worst: "REJECT", gotFrame: false, streamTimeSec: 0, errorCode: 3001, requestParams }) },
  ]);
  assertAllValid(v.webhook("videoStreamAudioCallback"), [
    { what: "segment", body: videoStreamAudioResult(seg) },
    { what: "unchecked segment", body: videoStreamAudioResult(unchecked) },
    { what: "audio stream-end", body: videoStreamEnd({ taskId: "t", contentType: 2, worst: "REVIEW", gotFrame: true, streamTimeSec: 12.4, errorCode: 3004, requestParams }) },
  ]);
  assertAllValid(v.webhook("audioStreamCallback"), [
    { what: "segment", body: audioStreamSegmentResult({ ...seg, btId: "b", requestParams }) },
    { what: "unchecked segment", body: audioStreamSegmentResult({ ...unchecked, btId: "b", requestParams }) },
    { what: "end", body: audioStreamEnd({ taskId: "t", btId: "b", streamTimeSec: 3, errorCode: 3002, requestParams }) },
  ]);
  assertAllValid(v.webhook("videoFileCallback"), [{ what: "file", body: file }]);
  assertAllValid(v.response("/video/query/v4"), [{ what: "query 1100", body: withoutPassThrough(file) }]);
});
