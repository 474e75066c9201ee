// Readings the recogniser wrote in a loop (server/detect/audio/looping-readings.ts): list entries only a loop holds
// count for nothing, a phrase spotted inside a loop is not spliced in unless a hearing without a loop writes it, and a
// looping reading at another speed is never kept (alternate-readings.ts).
import assert from "node:assert/strict";
import { test } from "node:test";
import { chooseReading } from "../../server/detect/audio/alternate-readings";
import { DEFAULT_AUDIO_LISTS } from "../../server/detect/audio/lists";
import { loopedStretch, loopIn, spotsOutsideLoops } from "../../server/detect/audio/looping-readings";
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

test("loopedStretch: in a stretch whose reading loops, an entry counts only where a hearing that does not loop writes it too", () => {
  const span = { startSec: 1, endSec: 9 };
  const loop = "I'm going to tell you idiot. I'm going to tell you idiot. I'm going to tell you idiot. Buy cocaine here.";
  const unconfirmed = (hearings: string[]) => loopedStretch(loop, [loop, ...hearings], found, span)?.unconfirmed.sort();
  // no other hearing writes "idiot": it counts for nothing; "cocaine" is written at another speed without a loop: it counts
  assert.deepEqual(unconfirmed(["I'm going to tell you it. Buy cocaine here.", "going to sell you a ticket"]), ["idiot", "you idiot"]);
  assert.deepEqual(loopedStretch(loop, [loop, "Buy cocaine here."], found, span)?.confirmed, ["cocaine"]);
  // another hearing writes it without looping: it counts
  assert.deepEqual(unconfirmed(["you idiot, buy cocaine here"]), []);
  // a hearing that loops too confirms nothing
  assert.deepEqual(unconfirmed(["idiot idiot idiot idiot"]), ["cocaine", "idiot", "you idiot"]);
  // a reading that does not loop: not a looped stretch
  assert.equal(loopedStretch("you are a stupid idiot", [], found, span), null);
});

test("spotsOutsideLoops: a phrase spotted inside a looped stretch is spliced in only when a hearing without a loop writes it", () => {
  // the eval's case: Moonshine looped "I'm going to tell you what I'm saying"; pocketsphinx spotted "you idiot" at 1.2 s
  const loop = "I'm going to tell you what I'm saying. I'm going to tell you what I'm saying. I'm going to tell you what I'm saying.";
  const looped = loopedStretch(loop, [loop, "The museum has a new exhibit, buy cocaine"], found, { startSec: 0, endSec: 10 })!;
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

test("chooseReading never keeps a reading written in a loop, however many list entries it holds", () => {
  const hearing = (text: string, speed: number) => ({ text, speed, conf: 0.9, tokens: 8, encoded: undefined as never });
  const primary = { text: "the corn grows tall in the summer", verified: [] };
  const looping = "the porn grows porn grows porn grows porn grows idiot";
  assert.deepEqual(chooseReading(primary, [hearing(looping, 1.08)], found), { ...primary, speed: 1 });
});
