// Built-in keyword lists for spoken English (seed data of the shared list model, ../lists/model.ts). Matched over the lower-case transcript: words only, numbers as words.
import type { KeywordList, PhraseEntry } from "../lists/model";

/** Audio types a list can answer (docs/api.md §5.2 / §5.5). */
export type AudioTextType = "ADVERT" | "DIRTY" | "EROTIC" | "POLITY" | "BAN" | "VIOLENT" | "ADLAW";

// recognisers spell app names as the words they sound like ("what's up", "we chat")
const APPS = "wechat|we\\s+chat|whatsapp|what'?s\\s+(?:app|up)|telegram|snapchat|instagram|line|skype|discord|kik|signal|facebook";
const DIGIT = "zero|oh|one|two|three|four|five|six|seven|eight|nine";

export const DEFAULT_AUDIO_LISTS: KeywordList[] = [
  {
    name: "ad_contact",
    scope: "speech",
    type: "ADVERT",
    riskLevel: "REVIEW",
    label1: "ad",
    label2: "lianxifangshi",
    label3: "lianxifangshi",
    entries: [
      // asking the audience to move to another channel is traffic diversion: blocked, as for frames
      ...["add me on wechat", "add me on whatsapp", "add me on telegram", "add me on snapchat", "add me on instagram",
        "message me on whatsapp", "message me on telegram", "contact me on wechat", "contact me on whatsapp",
        "contact me on telegram", "my wechat is", "my whatsapp is"].map((phrase): PhraseEntry => ({ phrase, label3: "jiahaoyou", riskLevel: "REJECT" })),
      { id: "contact-app", pattern: `(?<![a-z])(?:add|contact|message|text|call|find|follow)\\s+(?:me|us)\\s+(?:on|at|via|in)\\s+(?:${APPS})(?![a-z])`, label3: "jiahaoyou", riskLevel: "REJECT" },
      ...["visit our website", "visit my website", "check out our website", "link in bio", "link in my bio", "link in the description", "dot com"]
        .map((phrase): PhraseEntry => ({ phrase, label3: "wangzhi" })),
      // seven or more spoken digits in a row ("five five five one two three four") read out a phone number
      { id: "phone-words", pattern: `(?<![a-z])(?:(?:${DIGIT}|double|triple)\\s+){6,}(?:${DIGIT})(?![a-z])`, label3: "dianhuahaoma" },
      { id: "phone-digits", pattern: "(?<![\\w+])\\+?\\d(?:[\\s.-]?\\d){6,14}(?!\\d)", label3: "dianhuahaoma" },
    ],
  },
  {
    name: "ad_words",
    scope: "speech",
    type: "ADVERT",
    riskLevel: "REVIEW",
    label1: "ad",
    label2: "ad",
    label3: "guanggaoci",
    entries: [
      "buy cheap followers", "cheap followers", "buy followers", "buy likes", "fake followers", "followers for sale",
      "get more followers", "make money fast", "earn money from home", "limited time offer", "click the link",
      "use my discount code", "promo code", "free gift card",
    ],
  },
  {
    name: "abuse",
    scope: "speech",
    type: "DIRTY",
    riskLevel: "REJECT",
    label1: "abuse",
    label2: "renshengongji",
    label3: "zhongdurenshengongji",
    entries: [
      "fuck you", "fuck off", "motherfucker", "son of a bitch", "bitch", "asshole", "bastard", "cunt", "dickhead",
      "piece of shit", "kill yourself", "stupid idiot", "you idiot", "you moron", "retard",
    ],
  },
  {
    name: "abuse_mild",
    scope: "speech",
    type: "DIRTY",
    riskLevel: "REVIEW",
    label1: "abuse",
    label2: "buwenmingyongyu",
    label3: "qingdubuwenmingyongyu",
    entries: ["idiot", "stupid", "moron", "loser", "dumbass", "shut up", "jerk", "screw you", "shit", "crap"],
  },
  {
    name: "porn",
    scope: "speech",
    type: "EROTIC",
    riskLevel: "REJECT",
    label1: "porn",
    label2: "porn",
    label3: "porn",
    entries: [
      "porn", "porno", "pornography", "sex video", "sex videos", "nude pictures", "naked pictures", "send nudes",
      "blowjob", "blow job", "pussy", "dick pics", "anal sex", "masturbate", "masturbation", "orgasm", "have sex with me",
    ],
  },
  {
    name: "politics",
    scope: "speech",
    type: "POLITY",
    riskLevel: "REVIEW",
    label1: "politics",
    label2: "shezheng",
    label3: "shezheng",
    entries: [
      "overthrow the government", "down with the government", "down with the communist party", "tiananmen",
      "falun gong", "free tibet", "taiwan independence", "xi jinping",
    ],
  },
  {
    name: "prohibited_drugs",
    scope: "speech",
    type: "BAN",
    riskLevel: "REJECT",
    label1: "prohibited",
    label2: "dupin",
    label3: "dupin",
    entries: ["cocaine", "heroin", "methamphetamine", "crystal meth", "buy weed", "sell weed", "ecstasy pills", "mdma", "fentanyl"],
  },
  {
    name: "prohibited_gambling",
    scope: "speech",
    type: "BAN",
    riskLevel: "REJECT",
    label1: "prohibited",
    label2: "dubo",
    label3: "dubo",
    entries: ["online casino", "sports betting", "bet now", "place your bets", "baccarat", "roulette", "slot machines"],
  },
  {
    name: "prohibited_weapons",
    scope: "speech",
    type: "BAN",
    riskLevel: "REJECT",
    label1: "prohibited",
    label2: "qiangzhi",
    label3: "qiangzhi",
    entries: ["guns for sale", "buy guns", "buy a gun", "sell guns", "unregistered firearms", "ammunition for sale"],
  },
  {
    name: "violence_terror",
    scope: "speech",
    type: "VIOLENT",
    riskLevel: "REJECT",
    label1: "violence",
    label2: "baokong",
    label3: "baokong",
    entries: ["how to make a bomb", "bomb making", "terrorist attack", "join the jihad", "behead", "kill them all", "mass shooting"],
  },
  {
    name: "adlaw_superlatives",
    scope: "speech",
    type: "ADLAW",
    riskLevel: "REVIEW",
    label1: "ad",
    label2: "guanggaofa",
    label3: "jixianci",
    entries: [
      "best in the world", "number one in the world", "the best ever", "one hundred percent guaranteed",
      "guaranteed results", "miracle cure", "cures cancer", "no side effects", "lowest price ever",
    ],
  },
];

/**
 * Pronunciations (CMU phones) for list words missing from pocketsphinx's dictionary. Keyword spotting only
 * uses a word's first pronunciation, so each variant becomes its own spotted phrase.
 */
export const EXTRA_PRONUNCIATIONS: Readonly<Record<string, readonly string[]>> = {
  wechat: ["W IY CH AE T", "W EH CH AE T"],
  falun: ["F AA L UW N", "F AA L AH N", "F AE L AH N"],
  jinping: ["JH IH N P IH NG", "SH IH N P IH NG"],
  fentanyl: ["F EH N T AH N IH L", "F EH N T AH N AH L"],
  mdma: ["EH M D IY EH M EY"],
};
