// OpenAI-compatible speech-to-text (POST {baseUrl}/audio/transcriptions, multipart): Whisper servers, vLLM, LocalAI…
import { readFile } from "node:fs/promises";
import path from "node:path";
import { SttError } from "./pocketsphinx";

export interface OpenAiTranscriberOptions {
  baseUrl: string;
  apiKey?: string;
  /** default "whisper-1" */
  model?: string;
  timeoutMs: number;
}

export interface RemoteTranscript {
  text: string;
  /** mean token probability when the server reports segments with avg_logprob (verbose_json), else undefined */
  confidence?: number;
}

/** Sends one WAV segment; `language` is an ISO-639-1 hint ("en", "zh"). */
export async function transcribeRemote(wavPath: string, o: OpenAiTranscriberOptions, language?: string): Promise<RemoteTranscript> {
  const form = new FormData();
  form.append("file", new Blob([await readFile(wavPath)], { type: "audio/wav" }), path.basename(wavPath));
  form.append("model", o.model ?? "whisper-1");
  form.append("response_format", "json");
  if (language) form.append("language", language);
  const url = `${o.baseUrl.replace(/\/+$/, "")}/audio/transcriptions`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: "POST",
      body: form,
      headers: o.apiKey ? { authorization: `Bearer ${o.apiKey}` } : {},
      signal: AbortSignal.timeout(o.timeoutMs),
    });
  } catch (err) {
    throw new SttError(`transcription request to ${url} failed: ${(err as Error).message}`);
  }
  const body = await res.text();
  if (!res.ok) throw new SttError(`transcription service answered ${res.status}: ${body.slice(0, 200)}`);
  let json: { text?: unknown; segments?: Array<{ avg_logprob?: unknown }> };
  try {
    json = JSON.parse(body) as typeof json;
  } catch {
    throw new SttError(`transcription service sent no JSON: ${body.slice(0, 200)}`);
  }
  if (typeof json.text !== "string") throw new SttError("transcription service sent no text");
  const logprobs = (json.segments ?? []).map((s) => s.avg_logprob).filter((v): v is number => typeof v === "number");
  const confidence = logprobs.length ? Math.exp(logprobs.reduce((a, b) => a + b, 0) / logprobs.length) : undefined;
  return { text: json.text, confidence };
}
