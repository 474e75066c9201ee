import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { after, before, describe, test } from "node:test";
import { fileReferenceTracks } from "../../server/detect/audio";
import { excerptWav, speechWav, TUNE_A, TUNE_B, tuneWav } from "../support/speech";
import { mediaDir, startStaticServer } from "../support/media";
import { queryUntilDone, startTestService, TEST_KEY } from "../support/app";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const run = promisify(execFile);

/** A short video whose audio track is the given WAV (test pattern picture). */
async function videoWithAudio(name: string, wav: string, seconds: number): Promise<string> {
  const out = path.join(mediaDir(), `${name}.mp4`);
  await run("ffmpeg", ["-y", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", `color=c=gray:s=320x240:r=10:d=${seconds}`, "-i", wav, "-af", "apad", "-t", String(seconds), "-c:v", "libx264", "-preset", "veryfast", "-c:a", "aac", "-shortest", out]);
  return out;
}

describe("audio detectors through /video/v4", async () => {
  const svc = await startTestService();
  let web: { url: string; close(): Promise<void> };
  const query = (btId: string) => queryUntilDone(svc, btId);
  before(async () => {
    web = await startStaticServer(mediaDir());
  });
  after(async () => {
    await web.close();
    await svc.close();
  });

  test("spoken ad phrase → ad label on the transcript with the list and entry that matched", async () => {
    const speech = await speechWav("please visit our website to buy cheap followers", { leadSec: 1, totalSec: 9 });
    const file = await videoWithAudio("speech-ad", speech, 9);
    const ack = await svc.post("/video/v4", { accessKey: TEST_KEY, appId: "a", eventId: "video", imgType: "QRCODE", audioType: "ADVERT", data: { btId: "speech-ad", url: `${web.url}/${path.basename(file)}` } });
    assert.equal(ack.code, 1100);
    const res = await query("speech-ad");
    assert.equal(res.riskLevel === "PASS", false, JSON.stringify(res.audioDetail));
    const seg = res.audioDetail[0];
    assert.equal(seg.vadCode, 1);
    assert.equal(seg.riskLabel1, "ad");
    assert.equal(seg.riskDetail.riskSource, 1001);
    assert.match(seg.riskDetail.audioText, /followers|website/i);
    const words = seg.riskDetail.matchedLists.flatMap((l: Json) => l.words.map((w: Json) => `${l.name}:${w.word}`));
    assert.ok(words.length > 0, "matchedLists say which list and word matched");
  });

  test("excerpt of a reference track → BANEDAUDIO with the entry; another tune → PASS", async () => {
    const refs = fileReferenceTracks(path.join(svc.dataDir, "audio-references"));
    const tuneA = await tuneWav("ref-tune-a", TUNE_A);
    await refs.add("banned_songs", "Tune A", tuneA);
    const excerpt = await excerptWav(tuneA, { startSec: 5, durationSec: 10, noise: 0.02, codec: "aac" });
    const other = await tuneWav("other-tune-b", TUNE_B);
    const hit = await videoWithAudio("tune-a-excerpt", excerpt, 10);
    const miss = await videoWithAudio("tune-b", other, 10);
    for (const [btId, file] of [["tune-hit", hit], ["tune-miss", miss]] as const) {
      const ack = await svc.post("/video/v4", { accessKey: TEST_KEY, appId: "a", eventId: "video", imgType: "QRCODE", audioType: "BANEDAUDIO", data: { btId, url: `${web.url}/${path.basename(file)}`, returnAllAudio: 1 } });
      assert.equal(ack.code, 1100, JSON.stringify(ack));
    }
    const a = await query("tune-hit");
    const b = await query("tune-miss");
    const seg = a.audioDetail[0];
    assert.notEqual(seg.riskLevel, "PASS", JSON.stringify(seg));
    assert.equal(seg.riskDetail.riskSource, 1003);
    assert.equal(seg.riskDetail.matchedTrack.list, "banned_songs", "the matched list is named");
    assert.equal(seg.riskDetail.matchedTrack.entry, "Tune A", "and the entry");
    assert.ok(Math.abs(seg.riskDetail.matchedTrack.offsetSec - 5) <= 1, `offset ${seg.riskDetail.matchedTrack.offsetSec}`);
    assert.equal(b.riskLevel, "PASS");
  });
});
