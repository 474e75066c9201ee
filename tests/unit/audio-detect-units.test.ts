// Audio detector parts on their own: fingerprint comparison, transcript splicing, the OpenAI-compatible transcriber.
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { compareFingerprints, createAudioDetector, ITEM_SEC, SttError } from "../../server/detect/audio/index";
import type { KwsPhrase } from "../../server/detect/audio/stt/pocketsphinx";
import { agreeingHits, freeTranscript, spliceSpotted, spokenTranscript, spokenWords } from "../../server/detect/audio/stt/transcript";
import { nearPhraseHits } from "../../server/detect/audio/near-phrases";
import { AUDIO_POLICY } from "../../server/detect/audio/policy";
import { compileAudioLists, matchTranscript } from "../../server/detect/audio/text-lists";
import { DEFAULT_AUDIO_LISTS } from "../../server/detect/audio/lists";
import { speechWav, POSITIVE_SENTENCES } from "../support/speech";

/** Deterministic pseudo-random 32-bit words. */
function words(n: number, seed: number): number[] {
  let x = seed >>> 0;
  return Array.from({ length: n }, () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x | 0;
  });
}

test("compareFingerprints: identical prints score 1 at offset 0", () => {
  const a = words(80, 7);
  assert.deepEqual(compareFingerprints(a, a), { score: 1, offsetSec: 0 });
});

test("compareFingerprints: an excerpt is found at its offset; flipped bits lower the score in proportion", () => {
  const ref = words(400, 11);
  const seg = ref.slice(100, 160);
  const exact = compareFingerprints(seg, ref);
  assert.equal(exact.score, 1);
  assert.equal(exact.offsetSec, Math.round(100 * ITEM_SEC * 100) / 100);
  // flip 2 of 32 bits in every item: bit-error rate 1/16
  const noisy = seg.map((v) => v ^ 0b101);
  const r = compareFingerprints(noisy, ref);
  assert.equal(r.score, Math.round((1 - 2 / 32) * 1000) / 1000);
  assert.equal(r.offsetSec, exact.offsetSec);
});

test("compareFingerprints: unrelated prints score near 0.5; a segment starting before the reference gets a negative offset", () => {
  const r = compareFingerprints(words(60, 1), words(400, 2));
  assert.ok(r.score > 0.45 && r.score < 0.65, String(r.score));
  const ref = words(100, 3);
  const seg = [...words(20, 4), ...ref.slice(0, 50)];
  const early = compareFingerprints(seg, ref, { minOverlap: 40 });
  assert.equal(early.score, 1);
  assert.equal(early.offsetSec, Math.round(-20 * ITEM_SEC * 100) / 100);
  assert.deepEqual(compareFingerprints([], ref), { score: 0, offsetSec: 0 });
});

test("spotted phrases replace what the free transcript misheard, never a list match they do not contain", () => {
  const u = [[
    { word: "and", startSec: 0.7, endSec: 0.86, conf: 0.9 }, { word: "me", startSec: 0.87, endSec: 1.05, conf: 0.3 },
    { word: "on", startSec: 1.06, endSec: 1.23, conf: 0.6 }, { word: "which", startSec: 1.24, endSec: 1.45, conf: 0.1 },
    { word: "stupid", startSec: 2.0, endSec: 2.4, conf: 0.7 }, { word: "idiot", startSec: 2.41, endSec: 2.8, conf: 0.7 },
  ]];
  const phrase = (text: string): KwsPhrase => ({ spotted: text, text, phones: 12, threshold: "1e-24" });
  const phrases = new Map([["add me on wechat", phrase("add me on wechat")], ["you idiot", phrase("you idiot")]]);
  const hits = [
    { phrase: "add me on wechat", startSec: 0.67, endSec: 1.56, prob: 0.857 },
    { phrase: "you idiot", startSec: 2.3, endSec: 2.8, prob: 0.95 },
  ];
  const free = freeTranscript(u, 0.6);
  assert.equal(free.text, "and me on which stupid idiot");
  const protect = [{ text: "stupid idiot", startSec: 2.0, endSec: 2.8 }];
  const t = spliceSpotted(free, hits, phrases, { minProb: 0.83, protect });
  assert.equal(t.text, "add me on wechat stupid idiot");
  assert.deepEqual(t.spliced, ["add me on wechat"]);
  assert.equal(t.text.slice(...t.tokens[0].position), "add me on wechat");
  const weak = spliceSpotted(free, hits, phrases, { minProb: 0.9, protect });
  assert.equal(weak.text, free.text, "below minProb nothing is spliced");
});

/** A local stand-in for an OpenAI-compatible /audio/transcriptions endpoint (the real service cannot exist here). */
async function fakeTranscriptionServer(reply: { status?: number; text: string }) {
  const requests: Array<{ url: string; contentType: string; auth?: string; body: Buffer }> = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    requests.push({ url: req.url ?? "", contentType: req.headers["content-type"] ?? "", auth: req.headers.authorization, body: Buffer.concat(chunks) });
    res.writeHead(reply.status ?? 200, { "content-type": "application/json" }).end(JSON.stringify({ text: reply.text }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return { baseUrl, requests, close: () => new Promise<void>((r) => server.close(() => r())) };
}

let tmp: string;
let speech: string;
before(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "audio-units-"));
  speech = await speechWav(POSITIVE_SENTENCES[0].text);
});
after(() => rm(tmp, { recursive: true, force: true }));

test("a recogniser's written text as the lists read speech: punctuation inside sentences dropped, sentence ends kept", () => {
  assert.equal(spokenWords("Call me at five, five, five, one, two."), "Call me at five five five one two.");
  assert.equal(spokenWords("Watch three-point videos (now)!"), "Watch three point videos now!");
  assert.equal(spokenWords("don’t ‘quote’ me: “ok”"), "don't quote me ok");
  assert.equal(spokenWords("Phone 555-1234 now"), "Phone 555-1234 now", "a dash between digits is part of a number");
});

test("spokenTranscript: each stretch its own phrases, sentences split, word times spread over the stretch", () => {
  const t = spokenTranscript([
    { text: "Hello there. Buy cheap followers", conf: 0.8, startSec: 1, endSec: 3.5 },
    { text: "visit our website", conf: 0.6, startSec: 6, endSec: 7.5 },
  ]);
  assert.equal(t.text, "Hello there. Buy cheap followers visit our website");
  assert.deepEqual(t.phrases.map(([a, b]) => t.text.slice(a, b)), ["Hello there.", "Buy cheap followers", "visit our website"]);
  assert.deepEqual(t.tokens.map((k) => [k.text, k.startSec, k.endSec]).slice(0, 2), [["Hello", 1, 1.5], ["there.", 1.5, 2]]);
  assert.equal(t.tokens[t.tokens.length - 1].endSec, 7.5);
  assert.deepEqual([...new Set(t.tokens.map((k) => k.conf))], [0.8, 0.6]);
  for (const k of t.tokens) assert.equal(t.text.slice(...k.position), k.text);
});

test("near phrases: a long list phrase nearly written is REVIEW with its entry; short phrases and unrelated speech are not", () => {
  const lists = compileAudioLists(DEFAULT_AUDIO_LISTS);
  const types = new Set(["ADVERT", "DIRTY", "POLITY", "BAN", "VIOLENT", "EROTIC", "ADLAW"]);
  const near = (text: string) => {
    const t = spokenTranscript([{ text, conf: 0.9, startSec: 0, endSec: 3 }]);
    const exact = matchTranscript(t, lists, types, { fromOffset: 0, defaultConf: 0.9 });
    return { t, exact, near: nearPhraseHits(t, lists, types, exact, AUDIO_POLICY.text.near, 0) };
  };
  const a = near("Add me on whatchat for a special discount.");
  assert.equal(a.exact.length, 0);
  assert.deepEqual(a.near.map((h) => [h.matchedLists[0].name, h.matchedLists[0].words[0].entry, h.riskLevel]), [["ad_contact", "add me on wechat", "REVIEW"]], "the entry is REJECT when exact; near, a human decides");
  const w = a.near[0].matchedLists[0].words[0];
  assert.equal(a.t.text.slice(...w.position), w.word);
  assert.ok(a.near[0].probability > 0.7 && a.near[0].probability < 0.9);
  // an exact hit is not reported twice
  assert.equal(near("add me on wechat now").near.length, 0);
  for (const neutral of ["the children played football in the garden", "please remember to water the plants on friday", "we watched the sunset from the top of the hill", "my brother cooked pasta for dinner yesterday"]) {
    assert.deepEqual(near(neutral).near, [], neutral);
  }
});

test("spotted phrases beside a spelling recogniser count only where its words agree with them", () => {
  const t = spokenTranscript([{ text: "I like to read books in the evening", conf: 0.9, startSec: 1, endSec: 4 }, { text: "at me on where chat for a discount", conf: 0.9, startSec: 5, endSec: 8 }]);
  const phrases = new Map([["you idiot", { spotted: "you idiot", text: "you idiot", phones: 7, threshold: "1e-14" }], ["add me on wechat", { spotted: "add me on wechat", text: "add me on wechat", phones: 11, threshold: "1e-22" }]]);
  const hits = [{ phrase: "you idiot", startSec: 2, endSec: 2.6, prob: 0.9 }, { phrase: "add me on wechat", startSec: 5.2, endSec: 6.4, prob: 0.9 }];
  const agreed = agreeingHits(t, hits, phrases, { maxDistance: AUDIO_POLICY.kws.agreeMaxDistance, windowSec: AUDIO_POLICY.kws.agreeWindowSec });
  assert.deepEqual(agreed.map((h) => h.phrase), ["add me on wechat"], "'read books' is nothing like 'you idiot'");
  const run = t.tokens.filter((k) => k.startSec >= agreed[0].startSec && k.endSec <= agreed[0].endSec).map((k) => k.text);
  assert.deepEqual(run, ["at", "me", "on", "where", "chat"], "the hit moves onto the words it agrees with");
});

test("openai transcriber: posts the segment as multipart, matches lists in the returned text, continues previousText", async () => {
  const srv = await fakeTranscriptionServer({ text: "Followers today, only ten dollars." });
  const d = createAudioDetector({ dataDir: tmp, transcriber: { kind: "openai", baseUrl: srv.baseUrl, apiKey: "k1", model: "whisper-large" } });
  try {
    const v = await d.detectSegment({ wavPath: speech, types: ["ADVERT"], businessTypes: [], lang: "zh", previousText: "you can buy cheap" });
    assert.equal(srv.requests.length, 1);
    const r = srv.requests[0];
    assert.equal(r.url, "/v1/audio/transcriptions");
    assert.match(r.contentType, /^multipart\/form-data; boundary=/);
    assert.equal(r.auth, "Bearer k1");
    const body = r.body.toString("latin1");
    assert.match(body, /name="file"; filename="[^"]+\.wav"/);
    assert.match(body, /name="model"\r\n\r\nwhisper-large\r\n/);
    assert.ok(body.includes("RIFF") && body.includes("WAVE"), "the WAV bytes are sent");
    assert.equal(v.vadCode, 1);
    // the lists read speech: punctuation inside a sentence is dropped (spokenWords), sentence ends kept
    assert.equal(v.audioText, "you can buy cheap Followers today only ten dollars.");
    assert.equal(v.segmentText, "Followers today only ten dollars.");
    assert.deepEqual([v.riskLevel, v.riskLabel1, v.riskDescription], ["REVIEW", "ad", "广告:广告:广告词"]);
    const w = v.riskDetail.matchedLists?.[0].words[0];
    assert.deepEqual(w, { word: "buy cheap Followers", position: [8, 27], entry: "buy cheap followers" });
    assert.match(d.capabilities().find((c) => c.group === "audiostreamType" && c.type === "ADVERT")?.engine ?? "", /OpenAI-compatible.*whisper-large/);
  } finally {
    await d.close();
    await srv.close();
  }
});

test("openai transcriber: a failing service rejects the segment with SttError", async () => {
  const srv = await fakeTranscriptionServer({ status: 503, text: "overloaded" });
  const d = createAudioDetector({ dataDir: tmp, transcriber: { kind: "openai", baseUrl: srv.baseUrl } });
  try {
    await assert.rejects(d.detectSegment({ wavPath: speech, types: ["DIRTY"], businessTypes: [] }), (e: Error) => e instanceof SttError && /503/.test(e.message));
    assert.match(srv.requests[0].body.toString("latin1"), /name="model"\r\n\r\nwhisper-1\r\n/);
  } finally {
    await d.close();
    await srv.close();
  }
});
