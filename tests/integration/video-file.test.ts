import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { makeVideo, mediaDir, startStaticServer } from "../support/media";
import { queryUntilDone, startTestService, TEST_KEY } from "../support/app";
import { startReceiver, storeBackends, waitFor } from "../support/net";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const submit = (btId: string, url: string, extra: Json = {}, data: Json = {}) => ({
  accessKey: TEST_KEY,
  appId: "default",
  eventId: "video",
  imgType: "QRCODE_ADVERT_EROTIC",
  audioType: "NONE",
  ...extra,
  data: { btId, tokenId: "u1", url, detectFrequency: 1, ...data },
});

let media: { url: string; close(): Promise<void> };
let qrAdVideo: string;
let plainVideo: string;

before(async () => {
  // 8 s: a QR code during 1–3 s, rendered ad text during 4–7 s, a tone throughout
  const qrAd = await makeVideo({ name: "qr-ad", durationSec: 8, width: 960, height: 540, audio: "tone", qr: { text: "https://spam.example/buy-now", fromSec: 1, toSec: 3 }, text: { content: "Add WeChat: maifen888 cheap followers", fromSec: 4, toSec: 7 } });
  const plain = await makeVideo({ name: "plain", durationSec: 12, width: 640, height: 360, audio: "tone" });
  media = await startStaticServer(mediaDir());
  qrAdVideo = `${media.url}/${qrAd.split("/").pop()}`;
  plainVideo = `${media.url}/${plain.split("/").pop()}`;
});
after(() => media.close());

for (const backend of storeBackends()) {
  describe(`/video/v4 + /video/query/v4 on ${backend.name}`, async () => {
    const svc = await startTestService({ databaseUrl: backend.databaseUrl });
    after(() => svc.close());

    test("audio types asked of a file without an audio track are listed in notAppliedTypes (its PASS is not a clean one)", async () => {
      const silent = await makeVideo({ name: "no-audio-track", durationSec: 2, width: 320, height: 180, audio: "none" });
      const ack = await svc.post("/video/v4", submit("no-audio-1", `${media.url}/${silent.split("/").pop()}`, { imgType: "QRCODE", audioType: "ADVERT" }));
      assert.equal(ack.code, 1100, JSON.stringify(ack));
      const r = await queryUntilDone(svc, "no-audio-1");
      assert.equal(r.riskLevel, "PASS");
      assert.deepEqual(r.auxInfo.notAppliedTypes, ["ADVERT"]);
      assert.equal(r.auxInfo.billingAudioDuration, 0);
    });

    test("QR code and ad text found; callback retried until 200 (3rd attempt); Query 1101 then 1100 with the same body", async () => {
      const rx = await startReceiver([500, 500]);
      const ack = await svc.post("/video/v4", submit("qr-ad-1", qrAdVideo, { callback: rx.url, imgType: "QRCODE_ADVERT" }, { extra: { passThrough: { k: "v" } } }));
      assert.equal(ack.code, 1100);
      assert.match(ack.requestId as string, /^[0-9a-f]{32}$/);
      assert.equal(ack.btId, "qr-ad-1");

      const early = await svc.post("/video/query/v4", { accessKey: TEST_KEY, btId: "qr-ad-1" });
      if (early.code === 1101) assert.deepEqual(Object.keys(early).sort(), ["btId", "code", "message", "requestId"]);
      else assert.equal(early.code, 1100);

      const received = await rx.until((r) => r.some((x) => x.status === 200), 120_000);
      assert.equal(received.length, 3, "delivered on the 3rd attempt");
      const body = received[2].body as Json;
      assert.equal(body.code, 1100);
      assert.equal(body.requestId, ack.requestId);
      assert.equal(body.btId, "qr-ad-1");
      assert.deepEqual(body.auxInfo.passThrough, { k: "v" });
      assert.ok(["REVIEW", "REJECT"].includes(body.riskLevel));
      assert.equal(body.auxInfo.billingImgNum, 8, "one frame a second over 8 s");

      const qrFrames = body.frameDetail.filter((f: Json) => (f.riskDetail.objects ?? []).some((o: Json) => o.qrContent === "https://spam.example/buy-now"));
      assert.ok(qrFrames.length >= 1, "a frame carries the decoded QR content");
      assert.ok(qrFrames.every((f: Json) => f.time >= 1 && f.time <= 3.01));
      const adFrames = body.frameDetail.filter((f: Json) => f.allLabels.some((l: Json) => l.riskLabel1 === "ad") && /maifen888/i.test(f.imgText ?? ""));
      assert.ok(adFrames.length >= 1, "a frame carries the OCR ad text");
      const matched = adFrames[0].allLabels.find((l: Json) => l.riskDetail?.ocrText?.matchedLists?.length)?.riskDetail.ocrText;
      assert.ok(matched, "matchedLists say which list and word matched");
      for (const f of body.frameDetail) assert.match(f.imgUrl, /\/media\/[0-9a-f]{32}\/.+\?exp=\d+&sig=/);

      // the frame image is served (signed link), a tampered link is refused
      const img = await fetch(body.frameDetail[0].imgUrl);
      assert.equal(img.status, 200);
      assert.equal(img.headers.get("content-type"), "image/jpeg");
      const tampered = (body.frameDetail[0].imgUrl as string).replace(/sig=(.)/, (_m, c: string) => `sig=${c === "A" ? "B" : "A"}`);
      assert.equal((await fetch(tampered)).status, 403);

      const q = await svc.post("/video/query/v4", { accessKey: TEST_KEY, btId: "qr-ad-1" });
      const { passThrough: _p, ...aux } = body.auxInfo;
      assert.deepEqual(q, { ...body, auxInfo: aux }, "Query 1100 = the callback body without passThrough");

      const attempts = await svc.engine!.ctx.dispatcher.attemptsFor(ack.requestId as string);
      assert.deepEqual(attempts.map((a) => a.httpStatus), [500, 500, 200]);
      await rx.close();
    });

    test("a plain test pattern with a tone stays PASS for every real detector; audio segments cut at 10 s", async () => {
      const ack = await svc.post("/video/v4", submit("plain-1", plainVideo, { audioType: "POLITY_MOAN" }, { detectFrequency: 4, returnAllImg: 1, returnAllAudio: 1 }));
      assert.equal(ack.code, 1100);
      const res = await waitFor(async () => {
        const q = await svc.post("/video/query/v4", { accessKey: TEST_KEY, btId: "plain-1" });
        return q.code === 1100 ? (q as Json) : null;
      }, 120_000, 250);
      assert.equal(res.riskLevel, "PASS");
      assert.deepEqual(res.frameDetail.map((f: Json) => f.time), [0, 4, 8]);
      for (const f of res.frameDetail) {
        assert.equal(f.riskLevel, "PASS");
        assert.equal(f.riskLabel1, "normal");
      }
      assert.deepEqual(res.audioDetail.map((a: Json) => [a.audioStarttime, Math.round(a.audioEndtime)]), [[0, 10], [10, 12]]);
      assert.ok(res.auxInfo.notAppliedTypes.includes("MOAN"), "an audio type without a real detector is reported as not applied");
      assert.ok(!res.auxInfo.notAppliedTypes.includes("POLITY"), "POLITY runs on the transcript");
      for (const a of res.audioDetail) {
        assert.equal(a.riskLevel, "PASS");
        assert.equal(a.vadCode, 0, "a tone is not speech");
      }
      assert.ok(Math.abs(res.auxInfo.time - 12) < 0.2);
      assert.equal((await fetch(res.audioDetail[0].audioUrl)).status, 200);
    });

    test("a btId still processing is answered with the running requestId (1001 dupRequestId)", async () => {
      const a = await svc.post("/video/v4", submit("dup-1", plainVideo));
      const b = await svc.post("/video/v4", submit("dup-1", plainVideo));
      assert.equal(a.code, 1100);
      if (b.detail) {
        assert.equal(b.requestId, a.requestId);
        assert.deepEqual(b.detail, { errorCode: 1001, dupRequestId: a.requestId });
      }
      await waitFor(async () => (await svc.post("/video/query/v4", { accessKey: TEST_KEY, btId: "dup-1" })).code === 1100, 120_000, 250);
    });

    test("undecodable file → result code 1905 by callback and Query", async () => {
      const rx = await startReceiver();
      const ack = await svc.post("/video/v4", submit("bad-1", `${media.url}/does-not-exist.mp4`, { callback: rx.url }));
      assert.equal(ack.code, 1100);
      const [cb] = await rx.until((r) => r.length >= 1);
      assert.equal(cb.body.code, 1905);
      assert.equal(cb.body.requestId, ack.requestId);
      const q = await svc.post("/video/query/v4", { accessKey: TEST_KEY, btId: "bad-1" });
      assert.equal(q.code, 1905);
      await rx.close();
    });

    test("bad bodies → 1902 naming the field; unknown key → 9101; never a 5xx", async () => {
      const cases: Array<[unknown, number, RegExp?]> = [
        ["{not json", 1902, /JSON/],
        ["[]", 1902],
        [{ appId: "a" }, 1902, /accessKey/],
        [{ accessKey: "nope", appId: "a", eventId: "e", imgType: "QRCODE", audioType: "NONE", data: { btId: "x", url: qrAdVideo } }, 9101],
        [{ ...submit("x", qrAdVideo), appId: undefined }, 1902, /appId/],
        [{ ...submit("x", qrAdVideo), imgType: undefined }, 1902, /imgType|imgBusinessType/],
        [submit("x", "ftp://example.com/a.mp4"), 1902, /url/],
        [submit("x", qrAdVideo, {}, { detectFrequency: "often" }), 1902, /detectFrequency/],
        [submit("x", qrAdVideo, {}, { advancedFrequency: { durationPoints: [10], frequencies: [1] } }), 1902, /frequencies|advancedFrequency/],
        [{ ...submit("x", qrAdVideo), imgType: "NOSUCHTYPE" }, 1902, /NOSUCHTYPE|imgType/],
      ];
      for (const [body, code, msg] of cases) {
        const res = await fetch(`${svc.url}/video/v4`, { method: "POST", body: typeof body === "string" ? body : JSON.stringify(body) });
        assert.equal(res.status, 200);
        const json = (await res.json()) as Json;
        assert.equal(json.code, code, `${JSON.stringify(body).slice(0, 80)} → ${JSON.stringify(json)}`);
        if (msg) assert.match(json.message, msg);
        assert.match(json.requestId, /^[0-9a-f]{32}$/);
      }
      const q = await svc.post("/video/query/v4", { accessKey: "wrong", btId: "qr-ad-1" });
      assert.equal(q.code, 9101);
      const unknown = await svc.post("/video/query/v4", { accessKey: TEST_KEY, btId: "never-submitted" });
      assert.equal(unknown.code, 1902);
      const get = await fetch(`${svc.url}/video/v4`);
      assert.equal(get.status, 405);
    });
  });
}
