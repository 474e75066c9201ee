// Audio type → engine table (static; no model or process code here) and the capability list built from it.
import { AUDIO_BUSINESS_TYPES, AUDIO_TYPES, AUDIOSTREAM_BUSINESS_TYPES, AUDIOSTREAM_TYPES } from "../../../lib/contract/taxonomy";
import { engineIn, type TypeEntry } from "../registry";
import type { Capability } from "../types";

export type AudioEngine = "text" | "known" | "song";

/** Measured on synthetic test voices and tunes (figures in server/detect/audio/README.md). */
export const AUDIO_TYPE_REGISTRY: Record<string, TypeEntry<AudioEngine>> = {
  ADVERT: { engine: "text", note: "lists ad_contact (app solicitation, websites, spoken phone numbers) and ad_words" },
  DIRTY: { engine: "text", note: "lists abuse (REJECT) and abuse_mild (REVIEW)" },
  EROTIC: { engine: "text", note: "list porn (explicit words only; moaning and other sounds are MOAN, unsupported)" },
  POLITY: { engine: "text", note: "list politics (small EN list, REVIEW)" },
  BAN: { engine: "text", note: "lists prohibited_drugs, prohibited_gambling, prohibited_weapons" },
  VIOLENT: { engine: "text", note: "list violence_terror" },
  ADLAW: { engine: "text", note: "list adlaw_superlatives (absolute claims, cure claims)" },
  ANTHEN: { engine: "known", note: "fingerprint match against the anthem reference list" },
  BANEDAUDIO: { engine: "known", note: "fingerprint match against the banned_songs reference list" },
  COPYRIGHTSONGS: { engine: "known", note: "fingerprint match against the copyright_songs reference list" },
  SING: { engine: "song", note: "held-note ratio of a YIN pitch track (music or singing vs speech) → audioTags.song" },
  MOAN: { note: "no offline classifier for moaning / sexual sounds is available here (needs a trained audio-event model)" },
  AUDIOPOLITICAL: { note: "needs speaker identification with enrolled voiceprints of leaders; no such model or data here" },
  MINOR: { note: "no voice-age model available; pitch alone cannot tell a child from an adult woman" },
  AGE: { note: "no voice-age model available" },
  GENDER: { note: "a pitch-based guess could only be checked on synthetic voices here, not real ones: not offered" },
  TIMBRE: { note: "needs GENDER and a voice-quality model; neither is available" },
  VOICE: { note: "synthetic-voice (anti-spoofing) detection needs a trained model; none available" },
  LANGUAGE: { note: "only an English recogniser is installed and no language-identification model" },
  AUDIOSCENE: { note: "no sound-scene / sound-event classifier is available offline" },
  APPNAME: { note: "no label scheme known for spoken app names; app solicitation is covered by ADVERT (ad_contact)" },
};

export interface EngineStatus {
  text: { available: boolean; engine: string; why?: string };
  known: { available: boolean; engine: string; why?: string };
  song: { available: boolean; engine: string; why?: string };
}

function row(group: Capability["group"], type: string, status: EngineStatus): Capability {
  if (type === "NONE") return { group, type, supported: true, note: "switches audio detection off: nothing to run" };
  const e = AUDIO_TYPE_REGISTRY[type];
  if (!e) return { group, type, supported: false, note: "unknown type" };
  if (!e.engine) return { group, type, supported: false, note: e.note };
  const s = status[e.engine];
  return s.available
    ? { group, type, supported: true, engine: s.engine, note: e.note }
    : { group, type, supported: false, engine: s.engine, note: s.why ?? "engine unavailable" };
}

/** Every value of the four audio groups of the contract, with the engine that serves it or why none does. */
export function audioCapabilityTable(status: EngineStatus): Capability[] {
  return [
    ...AUDIO_TYPES.map((t) => row("audioType", t, status)),
    ...AUDIO_BUSINESS_TYPES.map((t) => row("audioBusinessType", t, status)),
    ...AUDIOSTREAM_TYPES.map((t) => row("audiostreamType", t, status)),
    ...AUDIOSTREAM_BUSINESS_TYPES.map((t) => row("audiostreamBusinessType", t, status)),
  ];
}

/** The engine a requested value needs, or undefined (unsupported or unknown). */
export function engineForAudioType(type: string): AudioEngine | undefined {
  return engineIn(AUDIO_TYPE_REGISTRY, type);
}
