// Built-in keyword lists for frame text (seed data; operators add and remove entries: ./store.ts). Regex rules run on lower-cased, normalised OCR text.
import type { KeywordList } from "./model";

// Channels people use to move an audience off-platform.
const CHANNEL =
  "(?:微信|威信|薇信|徽信|v信|(?<![a-z0-9])(?:vx|wx|wechat|weixin|qq|telegram|tg|whatsapp|line|kakao(?:talk)?|skype|discord|snapchat)(?![a-z])|扣扣|电报)";
// An account id: 5–30 chars, starting with a letter or digit.
const ID = "[a-z0-9][a-z0-9_.-]{4,29}(?![a-z0-9_])";
const ID_SUFFIX = "(?:号码|号|\\s*id)?";
const SOLICIT = "(?:加|添加|\\+|(?<![a-z])(?:add|contact|dm|message|text)(?![a-z])|私信|私聊|联系|找)\\s*(?:me\\s+(?:on|at|via)\\s+|我\\s*)?";

const CONTACT_HANDLE = [
  // "加微信 maifen888", "Add WeChat: maifen888", "contact me on telegram abc_123"
  `${SOLICIT}${CHANNEL}${ID_SUFFIX}\\s*[:：]?\\s*${ID}`,
  // "微信号: maifen888", "WhatsApp: abcdef"
  `${CHANNEL}${ID_SUFFIX}\\s*[:：]\\s*${ID}`,
  // "vx maifen888": without a verb or colon the id must contain a digit
  `${CHANNEL}${ID_SUFFIX}\\s*(?=[a-z_.-]*\\d)${ID}`,
].join("|");

// URL characters, and those a URL may not end on (sentence punctuation after it is not part of it)
const URL_CHAR = "[^\\s<>\"'，。；、]";
const URL_END = "[^\\s<>\"'，。；、.,;:!?)\\]]";
const URL =
  `(?<![a-z0-9@])(?:(?:https?://|www\\.)${URL_CHAR}*${URL_END}` +
  `|[a-z0-9-]+(?:\\.[a-z0-9-]+)*\\.(?:com|net|org|cn|io|me|cc|xyz|top|vip|shop|info|co|tv|app|link|site|online|store|club|live)(?![a-z0-9-])(?:[/?#](?:${URL_CHAR}*${URL_END})?)?)`;

export const DEFAULT_LISTS: KeywordList[] = [
  {
    name: "ad_contact",
    scope: "image",
    type: "ADVERT",
    riskLevel: "REVIEW",
    label1: "ad",
    label2: "lianxifangshi",
    label3: "lianxifangshi",
    entries: [
      // soliciting contact on another channel is traffic diversion: blocked outright
      { id: "contact-handle", pattern: CONTACT_HANDLE, label3: "shejiaozhanghao", riskLevel: "REJECT" },
      { id: "url", pattern: URL, label3: "wangzhi" },
      { id: "cn-mobile", pattern: "(?<![\\d+])(?:\\+?86[ -]?)?1[3-9]\\d(?:[ -]?\\d{4}){2}(?!\\d)", label3: "shoujihao" },
      { id: "intl-phone", pattern: "(?<![\\w+])(?:\\+|00)[1-9]\\d{0,2}(?:[ .-]?\\(?\\d\\)?){7,13}(?!\\d)", label3: "dianhuahaoma" },
      { id: "cn-landline", pattern: "(?<!\\d)(?:0\\d{2,3}-\\d{7,8}|[48]00[ -]?\\d{3}[ -]?\\d{4})(?!\\d)", label3: "dianhuahaoma" },
    ],
  },
  {
    name: "ad_words",
    scope: "image",
    type: "ADVERT",
    riskLevel: "REVIEW",
    label1: "ad",
    label2: "ad",
    label3: "guanggaoci",
    entries: [
      "cheap followers", "buy followers", "buy likes", "fake followers", "followers for sale", "likes for sale",
      "boost your followers", "make money fast", "earn money from home", "work from home", "limited time offer",
      "click the link", "dm for price", "wholesale price",
      "低价刷粉", "刷粉", "买粉", "涨粉", "刷赞", "刷单", "代购", "代刷", "兼职日结", "日赚", "日入过万", "免费领取",
      "招代理", "引流", "扫码领取", "私聊下单", "批发价", "加群",
    ],
  },
  {
    name: "prohibited_gambling",
    scope: "image",
    type: "IMGTEXTRISK",
    riskLevel: "REJECT",
    label1: "prohibited",
    label2: "dubo",
    label3: "dubo",
    entries: [
      "online casino", "casino online", "sports betting", "bet now", "baccarat", "roulette online",
      "赌博", "网赌", "赌场", "线上赌场", "百家乐", "六合彩", "时时彩", "赌球", "博彩", "老虎机",
    ],
  },
  {
    name: "prohibited_drugs",
    scope: "image",
    type: "IMGTEXTRISK",
    riskLevel: "REJECT",
    label1: "prohibited",
    label2: "dupin",
    label3: "dupin",
    entries: [
      "cocaine", "heroin", "methamphetamine", "crystal meth", "buy weed", "ecstasy pills", "mdma",
      "冰毒", "海洛因", "摇头丸", "k粉", "可卡因", "麻古", "大麻出售", "卖大麻",
    ],
  },
  {
    name: "prohibited_weapons",
    scope: "image",
    type: "IMGTEXTRISK",
    riskLevel: "REJECT",
    label1: "prohibited",
    label2: "qiangzhi",
    label3: "qiangzhi",
    entries: ["guns for sale", "buy guns", "unregistered firearms", "枪支出售", "出售枪支", "买枪", "卖枪", "仿真枪出售"],
  },
  {
    name: "violence_terror",
    scope: "image",
    type: "IMGTEXTRISK",
    riskLevel: "REJECT",
    label1: "violence",
    label2: "baokong",
    label3: "baokong",
    entries: [
      "how to make a bomb", "bomb making", "terrorist attack", "join the jihad", "behead",
      "制作炸弹", "炸弹制作", "恐怖袭击", "圣战", "爆炸物制作", "砍头",
    ],
  },
];
