// Label taxonomy of the v4 contract (docs/api.md §5) plus the legacy alias names the vendor demos send (§8).

/** §5.1 imgType values (frames). */
export const IMG_TYPES = ["POLITY", "EROTIC", "VIOLENT", "QRCODE", "ADVERT", "IMGTEXTRISK"] as const;
export type ImgType = (typeof IMG_TYPES)[number];

/** §5.2 audioType values for video stream / video file audio; NONE disables audio detection. */
export const AUDIO_TYPES = [
  "POLITY", "EROTIC", "ADVERT", "BAN", "VIOLENT", "DIRTY", "ADLAW", "MOAN",
  "AUDIOPOLITICAL", "ANTHEN", "BANEDAUDIO", "NONE",
] as const;
export type AudioType = (typeof AUDIO_TYPES)[number];

/** §5.3 audioBusinessType values (video stream / file). APPNAME is stream-only but accepted for files too. */
export const AUDIO_BUSINESS_TYPES = [
  "SING", "LANGUAGE", "MINOR", "GENDER", "TIMBRE", "VOICE", "AUDIOSCENE", "AGE", "APPNAME",
] as const;
export type AudioBusinessType = (typeof AUDIO_BUSINESS_TYPES)[number];

/** §5.4 imgBusinessType values: 72 distinct (files: same minus DANCE, but §7 #11 accepts DANCE for files). */
export const IMG_BUSINESS_TYPES = [
  // Face
  "AGE", "GENDER", "BEAUTY", "RACE", "FACEDETECTION", "FAKEFACE", "FACECOMPARE",
  // Person / portrait / body
  "PUBLICFIGURE", "TAINTEDSTAR", "POSTURE", "DRESS", "TEMPERAMENT", "BODY", "DEFORMITY",
  // Picture properties (LOWCONTNET is the vendor's spelling)
  "PICTUREFORM", "PICTURESTRUCT", "LOWVISION", "LOWCONTNET", "LIVEPICTURE", "SCREENSHOT",
  // Scene themes
  "FITNESS", "CATE", "MUSIC", "SPORTS", "SCENERY", "CITYVIEW", "SETTING", "EXTREMEWEATHER", "DANCE",
  // Logos
  "3CPRODUCTSLOGO", "SHOPPINGAPPSLOGO", "RETOUCHAPPSLOGO", "SOCIALAPPSLOGO", "PHOTOMATERIALLOGO",
  "NEWSAPPSLOGO", "ENTERTAINMENTAPPSLOGO", "SPORTSLOGO", "APPARELLOGO", "ACCESSORIESLOGO",
  "COSMETICSLOGO", "FOODLOGO", "AUTOTRADEAPPSLOGO",
  // Objects
  "VEHICLE", "BUILDING", "TABLEWARE", "FOOD", "HOMEAPPLICATION", "OFFICESUPPLIES", "FASHION",
  "SPORTEQUIPMENT", "TOY", "MAKEUP", "DRUGS", "PAINTING", "ELECTRONIC", "MEDICALIMAGE", "FURNITURE",
  "DAILYSUPPLIES", "CONSTELLATION", "KITCHENWARE", "KEEPSAKE", "LOTTERY", "LICENCEPLATE",
  // Animals / plants
  "MAMMAL", "BIRDS", "REPTILE", "FISH", "ARTHROPOD", "COELENTERATE", "MOLLUSKS", "CRUSTACEAN", "PLANT",
] as const;
export type ImgBusinessType = (typeof IMG_BUSINESS_TYPES)[number];

/** §5.5 audio stream `type` values. */
export const AUDIOSTREAM_TYPES = [
  "POLITY", "EROTIC", "ADVERT", "BAN", "VIOLENT", "MOAN", "AUDIOPOLITICAL", "ANTHEN", "DIRTY",
  "ADLAW", "SING", "MINOR", "BANEDAUDIO", "COPYRIGHTSONGS", "VOICE",
] as const;
export type AudiostreamType = (typeof AUDIOSTREAM_TYPES)[number];

/** §5.6 audio stream `businessType` values. */
export const AUDIOSTREAM_BUSINESS_TYPES = [
  "GENDER", "AGE", "TIMBRE", "SING", "LANGUAGE", "VOICE", "AUDIOSCENE",
] as const;
export type AudiostreamBusinessType = (typeof AUDIOSTREAM_BUSINESS_TYPES)[number];

/** §5.8 riskLevel values, mildest first. */
export const RISK_LEVELS = ["PASS", "REVIEW", "REJECT"] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];

/** §5.8 riskSource: 1000 no risk, 1001 text (OCR/transcript), 1002 visual, 1003 audio/voice. */
export const RISK_SOURCES = [1000, 1001, 1002, 1003] as const;
export type RiskSource = (typeof RISK_SOURCES)[number];
export const RISK_SOURCE_MEANING: Readonly<Record<RiskSource, string>> = {
  1000: "no risk",
  1001: "text (OCR or transcript)",
  1002: "visual",
  1003: "audio/voice",
};

/** Worst of two risk levels (REJECT > REVIEW > PASS). */
export function worstRiskLevel(a: RiskLevel, b: RiskLevel): RiskLevel {
  return RISK_LEVELS.indexOf(a) >= RISK_LEVELS.indexOf(b) ? a : b;
}

/** §5.8 riskLabel1 slugs seen in vendor samples (not exhaustive: callbacks accept any string). */
export const KNOWN_RISK_LABEL1 = ["normal", "politics", "abuse", "ad", "violence", "porn", "face", "minor"] as const;

/** §8 legacy (2021) label names sent by vendor demo clients → canonical §5 names. */
export const TYPE_ALIASES: Readonly<Record<string, string>> = {
  POLITICS: "POLITY",
  POLITICAL: "POLITY",
  PORN: "EROTIC",
  AD: "ADVERT",
  ABUSE: "DIRTY",
};

/** §2.1/§2.3 stream types. WEBRTC is this service's extension (not the vendor's): `data.url` is a WHEP endpoint. */
export const VIDEOSTREAM_STREAM_TYPES = ["NORMAL", "AGORA", "TRTC", "ZEGO", "VOLC", "ALI", "WEBRTC"] as const;
export type VideostreamStreamType = (typeof VIDEOSTREAM_STREAM_TYPES)[number];
export const AUDIOSTREAM_STREAM_TYPES = ["NORMAL", "ZEGO", "AGORA", "TRTC", "VOLC", "GIN", "ALI", "YUNXIN", "WEBRTC"] as const;
export type AudiostreamStreamType = (typeof AUDIOSTREAM_STREAM_TYPES)[number];

/** §2.1 / §7 #8 data.lang values (CN list incl. auto). */
export const LANGS = [
  "zh", "en", "ar", "hi", "es", "fr", "ru", "pt", "id", "de", "ja", "tr", "vi", "it", "th", "tl", "ko", "ms", "auto",
] as const;
export type Lang = (typeof LANGS)[number];

/** acceptLang: language of riskDescription / businessDescription. */
export const ACCEPT_LANGS = ["zh", "en"] as const;
export type AcceptLang = (typeof ACCEPT_LANGS)[number];

export const GENDERS = ["male", "female", "ambiguity"] as const;

/** §5.7 audioTags timbre labels (zh → en). */
export const TIMBRE_LABELS: Readonly<Record<string, string>> = {
  大叔: "uncle", 青年: "young man", 正太: "boy", 老年: "elderly", 女王: "queen",
  御姐: "mature woman", 少女: "girl", 萝莉: "little girl", 大妈: "middle-aged woman",
};
/** §5.7 audioTags gender labels (zh → en). */
export const GENDER_LABELS: Readonly<Record<string, string>> = { 男性: "Male", 女性: "Female" };
/** §5.7 audioTags language labels. */
export const LANGUAGE_LABELS: Readonly<Record<number, string>> = {
  0: "Mandarin", 1: "English", 2: "Cantonese", 3: "Tibetan", 4: "Uyghur", 5: "Mongolian", 6: "Korean", [-1]: "other",
};

export interface ParsedTypeList {
  /** canonical names, deduplicated, in first-seen order */
  types: string[];
  /** raw tokens that are neither allowed nor an alias of an allowed name */
  unknown: string[];
}

/**
 * Split a `_`-joined type string (the vendor's joining rule), upper-case each token, map §8 aliases,
 * dedupe. A token already in `allowed` wins over an alias; an alias counts only if its target is allowed.
 */
export function parseTypeList(s: string, allowed: readonly string[]): ParsedTypeList {
  const types: string[] = [];
  const unknown: string[] = [];
  for (const raw of s.split("_")) {
    const token = raw.trim().toUpperCase();
    if (token === "") continue;
    let name: string | undefined;
    if (allowed.includes(token)) name = token;
    else if (TYPE_ALIASES[token] !== undefined && allowed.includes(TYPE_ALIASES[token])) name = TYPE_ALIASES[token];
    if (name === undefined) {
      if (!unknown.includes(raw.trim())) unknown.push(raw.trim());
    } else if (!types.includes(name)) {
      types.push(name);
    }
  }
  return { types, unknown };
}

/** Join canonical names back into the vendor's `_`-joined form. */
export function joinTypeList(types: readonly string[]): string {
  return types.join("_");
}
