// Readings the recogniser wrote in a loop of its own making (server/detect/audio/looping-readings.ts): words only such a
// loop holds count for nothing, a phrase spotted inside it is not spliced in unless a hearing without a loop writes it,
// and such a reading at another speed is never kept (alternate-readings.ts); speech that repeats itself counts.
import assert from "node:assert/strict";
import { test } from "node:test";
import { chooseReading } from "../../server/detect/audio/alternate-readings";
import { DEFAULT_AUDIO_LISTS } from "../../server/detect/audio/lists";
import { countsOutsideLoops, loopedStretch, loopIn, madeUpLoop, spotsOutsideLoops } from "../../server/detect/audio/looping-readings";
import { textTranscript } from "../../server/detect/audio/stt/transcript";
import { compileAudioLists, matchTranscript } from "../../server/detect/audio/text-lists";

const TYPES = new Set(["POLITY", "EROTIC", "ADVERT", "BAN", "VIOLENT", "DIRTY", "ADLAW"]);
const lists = compileAudioLists(DEFAULT_AUDIO_LISTS);
const found = (text: string) =>
  matchTranscript(textTranscript(text, 1), lists, TYPES, { fromOffset: 0, defaultConf: 1 }).flatMap((h) => h.matchedLists.flatMap((l) => l.words.map((w) => w.word.toLowerCase())));

test("loopIn: a run of words said three times or more back to back, or one word four times; a number read digit by digit is no loop", () => {
  // readings Moonshine wrote on the speech eval's continuous unrelated speech
  assert.deepEqual(loopIn("North North North North North North North North"), { phrase: "north", times: 8 });
  const winds = loopIn("The current stormy winds are still in the forest. The winds are still in the forest. The winds are still in the forest. The winds are still in the forest.");
  assert.equal(winds?.times, 3);
  assert.match(winds?.phrase ?? "", /winds are still in the forest/);
  assert.equal(loopIn("I'm going to tell you idiot, I'm going to tell you idiot, I'm going to tell you idiot")?.times, 3);
  // what people say: repeats, but no loop
  assert.equal(loopIn("Call me at five, five, five, one, two, three, four, five, six."), null);
  assert.equal(loopIn("No, no, no. Stop it, stop it."), null);
  assert.equal(loopIn("very very very good"), null);
  assert.equal(loopIn(""), null);
});

test("madeUpLoop: a loop no other hearing repeats is the model's; speech that repeats itself is heard repeating at every speed", () => {
  const loop = "I'm going to tell you what I'm saying. I'm going to tell you what I'm saying. I'm going to tell you what I'm saying.";
  assert.equal(madeUpLoop(loop, ["The museum has a new exhibit", "The museum and the new dinosaur exhibit"])?.times, 3);
  // a chant: the other speeds write the repeats too
  assert.equal(madeUpLoop("kill kill kill kill them all", ["kill kill kill kill them all", "Kill, kill, kill them all."]), null);
  assert.equal(madeUpLoop("fuck you fuck you fuck you", ["fuck you, fuck you", "sorry"]), null);
  // a phone number with four equal digits is heard so at other speeds as well
  assert.equal(madeUpLoop("call five five five five now", ["call five five five five now"]), null);
  assert.equal(madeUpLoop("no loop here", []), null);
});

test("loopedStretch: in a stretch whose reading loops of its own making, entries count only where a hearing without a loop writes them", () => {
  const span = { startSec: 1, endSec: 9 };
  const loop = "I'm going to tell you idiot. I'm going to tell you idiot. I'm going to tell you idiot. Buy cocaine here.";
  const confirmed = (others: string[]) => loopedStretch(loop, others, found, span)?.confirmed.sort();
  assert.deepEqual(confirmed(["I'm going to tell you it. Buy cocaine here.", "going to sell you a ticket"]), ["cocaine"]);
  assert.deepEqual(confirmed(["you idiot, buy cocaine here"]), ["cocaine", "idiot", "you idiot"]);
  // a hearing that loops (on something else) confirms nothing
  assert.deepEqual(confirmed(["North North North North cocaine"]), []);
  // no loop, or a loop the other hearings repeat: not a looped stretch
  assert.equal(loopedStretch("you are a stupid idiot", [], found, span), null);
  assert.equal(loopedStretch(loop, [loop], found, span), null);
});

test("countsOutsideLoops: a hit counts unless every word it matched lies in a looped stretch that does not confirm it", () => {
  // a segment read as two stretches: 0-4 s a made-up loop that wrote "idiot", 5-9 s real speech saying "idiot"
  const t = textTranscript("tell you idiot tell you idiot tell you idiot. you are an idiot", 1);
  const timed = t.tokens.map((k, i) => ({ ...k, startSec: i < 9 ? i * 0.4 : 5 + (i - 9) * 0.5, endSec: i < 9 ? i * 0.4 + 0.3 : 5 + (i - 9) * 0.5 + 0.4 }));
  const transcript = { ...t, tokens: timed };
  const loops = [{ startSec: 0, endSec: 4, confirmed: [] }];
  const hits = matchTranscript(transcript, lists, TYPES, { fromOffset: 0, defaultConf: 1 });
  const idiot = hits.find((h) => h.matchedLists.some((l) => l.words.some((w) => w.word.toLowerCase() === "idiot")))!;
  assert.ok(idiot, "the list matches 'idiot'");
  // said for real in the second stretch: the hit counts
  assert.equal(countsOutsideLoops(idiot, transcript, 0, loops), true);
  // only in the loop: it does not
  const onlyLoop = { ...idiot, matchedLists: idiot.matchedLists.map((l) => ({ ...l, words: l.words.filter((w) => w.position[0] < 45) })) };
  assert.equal(countsOutsideLoops(onlyLoop, transcript, 0, loops), false);
  // unless a hearing without a loop confirms it; and with no loops everything counts
  assert.equal(countsOutsideLoops(onlyLoop, transcript, 0, [{ ...loops[0], confirmed: ["idiot"] }]), true);
  assert.equal(countsOutsideLoops(onlyLoop, transcript, 0, []), true);
  // words in the previous segment's text (before fromOffset) are not this segment's loop
  assert.equal(countsOutsideLoops(onlyLoop, transcript, 100, loops), true);
});

test("spotsOutsideLoops: a phrase spotted inside a looped stretch is spliced in only when a hearing without a loop writes it", () => {
  // the eval's case: Moonshine looped "I'm going to tell you what I'm saying"; pocketsphinx spotted "you idiot" at 1.2 s
  const loop = "I'm going to tell you what I'm saying. I'm going to tell you what I'm saying. I'm going to tell you what I'm saying.";
  const looped = loopedStretch(loop, ["The museum has a new exhibit, buy cocaine"], found, { startSec: 0, endSec: 10 })!;
  const spots = [
    { phrase: "YOU IDIOT", startSec: 1.2, endSec: 1.8 },
    { phrase: "COCAINE", startSec: 5, endSec: 5.5 },
  ];
  const text = (s: { phrase: string }) => s.phrase.toLowerCase();
  assert.deepEqual(spotsOutsideLoops(spots, [looped], text).map(text), ["cocaine"]);
  // outside the looped stretch every spot stays
  assert.deepEqual(spotsOutsideLoops(spots, [{ ...looped, startSec: 6, endSec: 10 }], text).map(text), ["you idiot", "cocaine"]);
  assert.deepEqual(spotsOutsideLoops(spots, [], text).length, 2);
});

test("chooseReading never keeps a reading written in a loop of its own making, however many list entries it holds", () => {
  const hearing = (text: string, speed: number) => ({ text, speed, conf: 0.9, tokens: 8, encoded: undefined as never });
  const primary = { text: "the corn grows tall in the summer", verified: [] };
  const looping = "the porn grows porn grows porn grows porn grows idiot";
  assert.deepEqual(chooseReading(primary, [hearing(looping, 1.08)], found), { ...primary, speed: 1 });
});
