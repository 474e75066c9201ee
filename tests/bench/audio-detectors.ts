// Audio detector benchmark: each stage on its own after a warm-up, then the whole detector, on 10 s 16 kHz segments.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { compareFingerprints, createAudioDetector, fileReferenceTracks, fingerprintFile } from "../../server/detect/audio/index";
import { readMonoWav } from "../../server/detect/audio/pcm";
import { AUDIO_POLICY } from "../../server/detect/audio/policy";
import { SpeechText } from "../../server/detect/audio/speech-text";
import { SileroVad } from "../../server/detect/audio/vad";
import { excerptWav, NEUTRAL_SENTENCES, POSITIVE_SENTENCES, speechWav, TUNE_A, TUNE_B, tuneWav } from "../support/speech";

const ROUNDS = 3;
const ALL_TYPES = ["POLITY", "EROTIC", "ADVERT", "BAN", "VIOLENT", "DIRTY", "ADLAW", "ANTHEN", "BANEDAUDIO", "COPYRIGHTSONGS", "SING"];

type Figures = { segmentsPerSec: number; msPerSegment: number };

/** Runs `fn` once per segment (after one warm-up call), ROUNDS times over, one at a time. */
async function time(segments: readonly string[], fn: (seg: string) => Promise<unknown>): Promise<Figures> {
  await fn(segments[0]);
  const t0 = performance.now();
  for (let r = 0; r < ROUNDS; r++) for (const s of segments) await fn(s);
  const ms = (performance.now() - t0) / (ROUNDS * segments.length);
  return { segmentsPerSec: Math.round((1000 / ms) * 100) / 100, msPerSegment: Math.round(ms) };
}

export async function benchAudioDetectors(): Promise<Record<string, Figures | Record<string, Figures>>> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), "bench-audio-"));
  try {
    const [tuneA, tuneB] = await Promise.all([tuneWav("a", TUNE_A), tuneWav("b", TUNE_B)]);
    // 10 s segments: a long sentence run (≈ 9 s of speech), a keyword sentence, and a song excerpt
    const speech = [
      await speechWav(NEUTRAL_SENTENCES.slice(0, 3).join(", "), { leadSec: 0.2 }),
      await speechWav(POSITIVE_SENTENCES[0].text),
    ];
    const music = await excerptWav(tuneA, { startSec: 12.3, noise: 0.05 });
    const segments = [...speech, music];

    const vad = await SileroVad.load();
    const audio = await Promise.all(segments.map(async (s) => [s, await readMonoWav(s)] as const));
    const byPath = new Map(audio);
    const vadFig = await time(segments, (s) => vad.detect(byPath.get(s)!.samples, 16000, AUDIO_POLICY.vad));
    const spans = new Map(await Promise.all(speech.map(async (s) => [s, (await vad.detect(byPath.get(s)!.samples, 16000, AUDIO_POLICY.vad)).spans] as const)));
    await vad.close();

    // both offline recognisers on the same speech segments: Moonshine (default) on the voiced spans, pocketsphinx on all of it
    const textTypes = new Set(ALL_TYPES.slice(0, 7));
    const sttFig: Record<string, Figures> = {};
    for (const kind of ["moonshine", "pocketsphinx"] as const) {
      const stt = new SpeechText({ transcriber: { kind }, pocketsphinx: "pocketsphinx_continuous", dataDir: tmp });
      await stt.init();
      sttFig[kind] = await time(speech, (s) => stt.run(byPath.get(s)!, s, textTypes, undefined, spans.get(s)!));
      await stt.close();
    }

    const refs = [tuneA, tuneB].map(async (t) => (await fingerprintFile(t)).fingerprint);
    const refPrints = await Promise.all(refs);
    const fpFig = await time(segments, async (s) => {
      const seg = (await fingerprintFile(s)).fingerprint;
      for (const r of refPrints) compareFingerprints(seg, r);
    });

    const references = fileReferenceTracks(path.join(tmp, "refs"));
    await references.add("copyright_songs", "a", tuneA);
    await references.add("banned_songs", "b", tuneB);
    const detector = createAudioDetector({ dataDir: tmp, references });
    await detector.ready();
    const allFig = await time(segments, (s) => detector.detectSegment({ wavPath: s, types: ALL_TYPES, businessTypes: ["SING"] }));
    await detector.close();
    return { vad: vadFig, stt: sttFig, fingerprint: fpFig, all: allFig };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(JSON.stringify({ cpus: os.cpus().length, loadavg: os.loadavg(), audio: await benchAudioDetectors() }, null, 2));
}
