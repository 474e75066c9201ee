// One transcript from the recognisers: free transcription, with acoustically spotted phrases spliced in where it missed them.
import type { KwsHit, KwsPhrase, SttWord } from "./pocketsphinx";
import { closestRun, lettersOf } from "../../text/spelling";

export interface Token {
  text: string;
  startSec: number;
  endSec: number;
  conf: number;
  source: "stt" | "kws";
  /** tokens of one pause-delimited phrase share this number */
  group: number;
}

export interface Transcript {
  text: string;
  /** token spans in `text`: [start, end) UTF-16 offsets */
  tokens: Array<Token & { position: [number, number] }>;
  /** pause- or sentence-delimited spans of `text`, in order, covering every token */
  phrases: Array<[number, number]>;
  /** spotted phrases that were spliced in (missing from the free transcript) */
  spliced: string[];
}

const words = (s: string) => s.toLowerCase().split(/\s+/).filter(Boolean);

/** Free-transcript words grouped into phrases: a new one per utterance and after a pause ≥ gapSec. */
export function freeTranscript(utterances: SttWord[][], gapSec: number): Transcript {
  let group = 0;
  const tokens: Token[] = [];
  for (const u of utterances) {
    group++;
    u.forEach((w, i) => {
      if (i > 0 && w.startSec - u[i - 1].endSec >= gapSec) group++;
      tokens.push({ text: w.word, startSec: w.startSec, endSec: w.endSec, conf: w.conf, source: "stt", group });
    });
  }
  return assemble(tokens, []);
}

/**
 * Splices accepted spotted phrases into `t` in place of the words they overlap, unless the transcript already
 * says the phrase there, or it would replace part of a `protect`ed match (words the lists already matched) that
 * the phrase does not say in full ("you moron" may replace a matched "moron"; "you idiot" not "stupid idiot").
 */
export function spliceSpotted(t: Transcript, hits: readonly KwsHit[], phrases: ReadonlyMap<string, KwsPhrase>, o: { minProb: number; protect: readonly Protected[] }): Transcript {
  let tokens: Token[] = t.tokens.map(({ position: _p, ...k }) => k);
  let group = tokens.reduce((m, k) => Math.max(m, k.group), 0);
  const overlaps = (a: number, b: number, c: number, d: number) => b > c && a < d;
  const mid = (k: Token) => (k.startSec + k.endSec) / 2;
  const accepted = hits
    .filter((h) => h.prob >= o.minProb && phrases.has(h.phrase))
    .map((h) => ({ ...h, text: phrases.get(h.phrase)!.text }))
    // longest phrase first, then the most confident: "add me on wechat" wins over "wechat" on the same audio
    .sort((a, b) => words(b.text).length - words(a.text).length || b.prob - a.prob);
  const spliced: string[] = [...t.spliced];
  for (const h of accepted) {
    const overlapping = tokens.filter((k) => overlaps(k.startSec, k.endSec, h.startSec, h.endSec));
    // matched words stay unless the spotted phrase says them too ("you moron" may replace a matched "moron")
    // the words the phrase replaces: those whose middle falls inside it
    const replaced = overlapping.filter((k) => mid(k) >= h.startSec && mid(k) <= h.endSec);
    const hitWords = ` ${words(h.text).join(" ")} `;
    const guarded = o.protect.filter((m) => replaced.some((k) => overlaps(m.startSec, m.endSec, k.startSec, k.endSec)));
    if (guarded.some((m) => !hitWords.includes(` ${words(m.text).join(" ")} `))) continue;
    if (overlapping.some((k) => k.source === "kws")) continue;
    if (` ${overlapping.map((k) => k.text).join(" ")} `.includes(hitWords)) continue;
    const near = overlapping[0] ?? tokens.find((k) => k.startSec >= h.startSec) ?? tokens[tokens.length - 1];
    tokens = tokens.filter((k) => !replaced.includes(k));
    tokens.push({ text: words(h.text).join(" "), startSec: h.startSec, endSec: h.endSec, conf: h.prob, source: "kws", group: near?.group ?? ++group });
    spliced.push(h.text);
  }
  tokens.sort((a, b) => a.startSec - b.startSec || a.endSec - b.endSec);
  return assemble(tokens, spliced);
}

/** A list match in the free transcript: its words and where they were said. */
export interface Protected {
  text: string;
  startSec: number;
  endSec: number;
}

/** The time span of each matched text span (from the tokens under it). */
export function protectedMatches(t: Transcript, spans: ReadonlyArray<[number, number]>): Protected[] {
  return spans.flatMap(([a, b]) => {
    const under = t.tokens.filter((k) => k.position[0] < b && k.position[1] > a);
    return under.length ? [{ text: t.text.slice(a, b), startSec: under[0].startSec, endSec: under[under.length - 1].endSec }] : [];
  });
}

function assemble(tokens: Token[], spliced: string[]): Transcript {
  let text = "";
  const out: Transcript["tokens"] = [];
  const phrases: Array<[number, number]> = [];
  for (const t of tokens) {
    if (text !== "") text += " ";
    const start = text.length;
    text += t.text;
    out.push({ ...t, position: [start, text.length] });
    const last = phrases[phrases.length - 1];
    const prev = out[out.length - 2];
    if (last && prev && prev.group === t.group) last[1] = text.length;
    else phrases.push([start, text.length]);
  }
  return { text, tokens: out, phrases, spliced };
}

/**
 * A recogniser's written-out text as the lists read speech: words and numbers with sentence ends kept, the
 * punctuation inside a sentence dropped ("five, five, five" is three spoken digits; "three-point" two words).
 */
export function spokenWords(raw: string): string {
  return raw
    .replace(/(?<=\p{L})[-‐–](?=\p{L})/gu, " ")
    .replace(/[,;:"“”‘’()[\]{}…]/g, (c, i: number, all: string) => (c === "’" || c === "‘" ? (/\p{L}/u.test(all[i - 1] ?? "") && /\p{L}/u.test(all[i + 1] ?? "") ? "'" : " ") : " "))
    .replace(/\s+/g, " ")
    .replace(/ (?=[.!?。！？])/g, "")
    .trim();
}

/** A transcript from plain text (remote transcriber): sentences split at . ! ? and line breaks; no times. */
export function textTranscript(raw: string, conf: number): Transcript {
  const text = spokenWords(raw);
  const phrases: Array<[number, number]> = [];
  const re = /[^.!?。！？]+[.!?。！？]*/g;
  for (const m of text.matchAll(re)) {
    const lead = m[0].length - m[0].trimStart().length;
    const body = m[0].trim();
    if (body) phrases.push([m.index + lead, m.index + lead + body.length]);
  }
  const tokens: Transcript["tokens"] = [];
  for (const m of text.matchAll(/\S+/g)) tokens.push({ text: m[0], startSec: 0, endSec: 0, conf, source: "stt", group: 0, position: [m.index, m.index + m[0].length] });
  return { text, tokens, phrases, spliced: [] };
}

/** `previous` then `current` as one transcript (returnPreText): every span of `current` shifted past the join. */
export function prependText(previous: string, current: Transcript): Transcript {
  const prev = previous.replace(/\s+/g, " ").trim();
  if (prev === "") return current;
  const shift = prev.length + 1;
  const move = ([a, b]: [number, number]): [number, number] => [a + shift, b + shift];
  return {
    text: current.text === "" ? prev : `${prev} ${current.text}`,
    tokens: current.tokens.map((t) => ({ ...t, position: move(t.position) })),
    phrases: [[0, prev.length], ...current.phrases.map(move)],
    spliced: current.spliced,
  };
}

/** One voiced stretch of a segment and what the recogniser heard in it. */
export interface SpokenPart {
  text: string;
  conf: number;
  startSec: number;
  endSec: number;
}

/**
 * A transcript from recognised stretches (a recogniser that gives no word times): sentences as in textTranscript,
 * each stretch its own phrase group, word times spread evenly over their stretch (approximate).
 */
export function spokenTranscript(parts: readonly SpokenPart[]): Transcript {
  const tokens: Token[] = [];
  let group = 0;
  for (const p of parts) {
    const t = textTranscript(p.text, p.conf);
    if (t.tokens.length === 0) continue;
    const step = (p.endSec - p.startSec) / t.tokens.length;
    let phrase = 0;
    t.tokens.forEach((k, i) => {
      // a sentence end inside the stretch starts the next group, as a pause does in a timed transcript
      while (phrase < t.phrases.length && k.position[0] >= t.phrases[phrase][1]) phrase++;
      tokens.push({ text: k.text, startSec: p.startSec + i * step, endSec: p.startSec + (i + 1) * step, conf: p.conf, source: "stt", group: group + phrase + 1 });
    });
    group += t.phrases.length + 1;
  }
  return assemble(tokens, []);
}

/**
 * Spotted phrases the written transcript agrees with: somewhere within `windowSec` of the spotted time it has a run
 * of words spelled like the phrase (letters only, edit distance ≤ maxDistance × the longer spelling: "where chat"
 * for "wechat", not "read books" for "you idiot"). Each agreeing hit is moved onto that run, so splicing replaces
 * exactly those words. Two recognisers agreeing is what lets a spotted phrase through where one alone false-alarms
 * (pocketsphinx spotting alone raises abuse phrases on noisy neutral speech).
 */
export function agreeingHits(t: Transcript, hits: readonly KwsHit[], phrases: ReadonlyMap<string, KwsPhrase>, o: { maxDistance: number; windowSec: number }): KwsHit[] {
  const out: KwsHit[] = [];
  for (const h of hits) {
    const want = phrases.get(h.phrase)?.text ?? h.phrase;
    if (!lettersOf(want)) continue;
    const near = t.tokens.filter((k) => k.endSec >= h.startSec - o.windowSec && k.startSec <= h.endSec + o.windowSec);
    const best = closestRun(near.map((k) => k.text), want, { minRatio: 0, maxRatio: 2 });
    if (best && best.d <= o.maxDistance) out.push({ ...h, startSec: near[best.from].startSec, endSec: near[best.to].endSec });
  }
  return out;
}
