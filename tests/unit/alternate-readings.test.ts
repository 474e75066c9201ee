// A stretch heard again at other speeds (server/detect/audio/alternate-readings.ts), with the real Moonshine model on
// speech generated here.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { chooseReading, hearAtSpeeds, resampleSpeed } from "../../server/detect/audio/alternate-readings";
import { DEFAULT_AUDIO_LISTS } from "../../server/detect/audio/lists";
import { readMonoWav } from "../../server/detect/audio/pcm";
import { AUDIO_POLICY as P } from "../../server/detect/audio/policy";
import { MoonshineStt } from "../../server/detect/audio/stt/moonshine";
import { textTranscript } from "../../server/detect/audio/stt/transcript";
import { compileAudioLists, matchTranscript } from "../../server/detect/audio/text-lists";
import { SileroVad } from "../../server/detect/audio/vad";
import { NEUTRAL_SENTENCES, noiseWav, speechOverBedWav, speechWav } from "../support/speech";

const TYPES = new Set(["POLITY", "EROTIC", "ADVERT", "BAN", "VIOLENT", "DIRTY", "ADLAW"]);
const lists = compileAudioLists(DEFAULT_AUDIO_LISTS);
const found = (text: string) =>
  matchTranscript(textTranscript(text, 1), lists, TYPES, { fromOffset: 0, defaultConf: 1 }).flatMap((h) => h.matchedLists.flatMap((l) => l.words.map((w) => w.word.toLowerCase())));

let model: MoonshineStt;
let vad: SileroVad;
before(async () => {
  [model, vad] = await Promise.all([MoonshineStt.load(), SileroVad.load()]);
});
after(async () => {
  await model?.close();
  await vad?.close();
});

/** The voiced part of a WAV (first to last VAD span, with the recogniser's margin), as speech-text.ts crops it. */
async function voicedCrop(wav: string): Promise<Float32Array> {
  const a = await readMonoWav(wav);
  const { spans } = await vad.detect(a.samples, a.sampleRate, P.vad);
  assert.ok(spans.length > 0, "the VAD finds the speech");
  const from = Math.max(0, spans[0].startSec - P.stt.marginSec);
  const to = Math.min(a.samples.length / a.sampleRate, spans[spans.length - 1].endSec + P.stt.marginSec);
  return a.samples.subarray(Math.floor(from * a.sampleRate), Math.ceil(to * a.sampleRate));
}

test("resampleSpeed: played 8 % fast, a 440 Hz tone is 8 % shorter and sounds at 475 Hz", () => {
  const rate = 16000;
  const x = new Float32Array(rate * 2);
  for (let i = 0; i < x.length; i++) x[i] = Math.sin((2 * Math.PI * 440 * i) / rate);
  const y = resampleSpeed(x, 1.08);
  assert.equal(y.length, Math.floor(x.length / 1.08));
  let crossings = 0;
  for (let i = 1; i < y.length; i++) if (y[i - 1] < 0 && y[i] >= 0) crossings++;
  const hz = crossings / (y.length / rate);
  assert.ok(Math.abs(hz - 440 * 1.08) < 2, `${hz} Hz`);
  assert.equal(resampleSpeed(x, 1).length, x.length);
});

test("a list phrase misheard at normal speed under noise, written at another speed, is kept with that reading and marked for review", async () => {
  const clean = await speechWav("they want to overthrow the government", { voice: "kal16", leadSec: 4 });
  const crop = await voicedCrop(await speechOverBedWav(clean, await noiseWav("pink"), 10));
  const heard = await model.transcribe(crop);
  const primary = { text: textTranscript(heard.text, 1).text, verified: [] };
  assert.deepEqual(found(primary.text), [], `normal speed already wrote it: ${primary.text}`);
  const r = chooseReading(primary, await hearAtSpeeds(model, crop, P.text.alternates.speeds), found);
  assert.notEqual(r.speed, 1);
  assert.ok(P.text.alternates.speeds.includes(r.speed));
  assert.match(r.text, /overthrow the government/i);
  assert.deepEqual(r.verified, ["overthrow the government"]);
});

test("unrelated speech heard at other speeds keeps its normal-speed reading", async () => {
  for (const text of NEUTRAL_SENTENCES.slice(0, 3)) {
    const crop = await voicedCrop(await speechWav(text, { voice: "awb", leadSec: 1 }));
    const heard = await model.transcribe(crop);
    const primary = { text: textTranscript(heard.text, 1).text, verified: [] };
    const alternates = await hearAtSpeeds(model, crop, P.text.alternates.speeds);
    assert.deepEqual(alternates.map((a) => a.speed), P.text.alternates.speeds);
    assert.deepEqual(chooseReading(primary, alternates, found), { ...primary, speed: 1 });
  }
});

test("chooseReading: the reading with more list entries wins; what it adds and what the reading check wrote in stay marked", () => {
  const hearing = (text: string, speed: number) => ({ text, speed, conf: 0.9, tokens: 8, encoded: undefined as never });
  const primary = { text: "send nudes to my private gun", verified: ["send nudes"] };
  // an alternate with no more entries than the primary is not taken
  assert.deepEqual(chooseReading(primary, [hearing("sin moves to my private account", 0.92)], found), { ...primary, speed: 1 });
  // one that says the checked phrase and a new one is taken; both are marked
  const r = chooseReading(primary, [hearing("Send nudes, buy a gun.", 1.04)], found);
  assert.equal(r.speed, 1.04);
  assert.equal(r.text, textTranscript("Send nudes, buy a gun.", 1).text);
  assert.deepEqual([...r.verified].sort(), ["buy a gun", "send nudes"]);
  // one with more entries that drops an entry written at normal speed is not taken
  assert.deepEqual(chooseReading(primary, [hearing("sin moves buy a gun and cocaine", 0.92)], found), { ...primary, speed: 1 });
  // an empty hearing is skipped
  assert.deepEqual(chooseReading(primary, [hearing("", 0.96)], found), { ...primary, speed: 1 });
});
