// Risk-label catalogue (CONTRACT §5.8): slug → display names. Browser-safe: data and pure functions only.

export type LabelLang = "zh" | "en";

export interface LabelName {
  zh: string;
  en: string;
}

/** riskLabel1 / businessLabel1 slugs: short English words. */
export const LABEL1_NAMES: Readonly<Record<string, LabelName>> = {
  normal: { zh: "正常", en: "Normal" },
  ad: { zh: "广告", en: "Advertising" },
  porn: { zh: "色情", en: "Pornography" },
  sexy: { zh: "性感", en: "Sexy" },
  politics: { zh: "涉政", en: "Politics" },
  violence: { zh: "暴恐", en: "Violence and terrorism" },
  abuse: { zh: "辱骂", en: "Abuse" },
  prohibited: { zh: "违禁", en: "Prohibited" },
  face: { zh: "人脸", en: "Face" },
  minor: { zh: "未成年人", en: "Minor" },
  // audio: known-audio matches and singing
  copyright: { zh: "版权", en: "Copyright" },
  sing: { zh: "唱歌", en: "Singing" },
};

/** riskLabel2 / riskLabel3 slugs (pinyin); one namespace for both levels, as in the vendor samples. */
export const SUBLABEL_NAMES: Readonly<Record<string, LabelName>> = {
  // ad
  ad: { zh: "广告", en: "Advertising" },
  guanggaoci: { zh: "广告词", en: "Advertising wording" },
  lianxifangshi: { zh: "联系方式", en: "Contact information" },
  jiahaoyou: { zh: "加好友", en: "Add-friend solicitation" },
  shejiaozhanghao: { zh: "社交账号", en: "Social media account" },
  shoujihao: { zh: "手机号", en: "Mobile number" },
  dianhuahaoma: { zh: "电话号码", en: "Phone number" },
  wangzhi: { zh: "网址", en: "URL" },
  erweima: { zh: "二维码", en: "QR code" },
  // porn / sexy
  porn: { zh: "色情", en: "Pornography" },
  dongmanseqing: { zh: "动漫色情", en: "Animated pornography" },
  yisiseqing: { zh: "疑似色情", en: "Suspected pornography" },
  xinggan: { zh: "性感", en: "Sexy" },
  // politics
  shezheng: { zh: "涉政", en: "Political" },
  zhengzhixiangzheng: { zh: "政治象征", en: "Political symbol" },
  guojiajigou: { zh: "国家机构", en: "State institution" },
  // violence
  baokong: { zh: "暴恐", en: "Violence and terrorism" },
  baokongchangjing: { zh: "暴恐场景", en: "Violent or terrorist scene" },
  xuexing: { zh: "血腥", en: "Gore" },
  // abuse
  renshengongji: { zh: "人身攻击", en: "Personal attack" },
  zhongdurenshengongji: { zh: "重度人身攻击", en: "Severe personal attack" },
  buwenmingyongyu: { zh: "不文明用语", en: "Uncivil language" },
  qingdubuwenmingyongyu: { zh: "轻度不文明用语", en: "Mild uncivil language" },
  // prohibited
  dubo: { zh: "赌博", en: "Gambling" },
  dupin: { zh: "毒品", en: "Drugs" },
  qiangzhi: { zh: "枪支", en: "Firearms" },
  // business labels seen in vendor samples
  renlianzitai: { zh: "人脸姿态", en: "Face pose" },
  zhenglian: { zh: "正脸", en: "Frontal face" },
  renlianleixing: { zh: "人脸类型", en: "Face type" },
  zhenren: { zh: "真人", en: "Real person" },
  wurenlian: { zh: "无人脸", en: "No face" },
  weichengnianren: { zh: "未成年人", en: "Minor" },
  // audio: known-audio matches, advertising-law wording, singing
  guoge: { zh: "国歌", en: "National anthem" },
  jinge: { zh: "禁歌", en: "Banned song" },
  banquan: { zh: "版权歌曲", en: "Copyrighted song" },
  guanggaofa: { zh: "广告法", en: "Advertising law" },
  jixianci: { zh: "极限词", en: "Superlative claims" },
  changge: { zh: "唱歌", en: "Singing" },
};

/** riskDescription used when a client's custom list matched (CONTRACT §5.8). */
export const CUSTOM_LIST_DESCRIPTION: LabelName = { zh: "命中自定义名单", en: "Hit custom list" };

/** Display name of one slug; unknown and masked slugs ("***") are shown as they are. */
export function labelName(slug: string, level: 1 | 2 | 3, lang: LabelLang = "zh"): string {
  const table = level === 1 ? LABEL1_NAMES : SUBLABEL_NAMES;
  const hit = Object.prototype.hasOwnProperty.call(table, slug) ? table[slug] : undefined;
  return hit ? hit[lang] : slug;
}

/** "L1:L2:L3" display names; "正常" / "Normal" for PASS (label1 `normal` or empty). Empty levels are left out. */
export function describe(l1: string, l2: string, l3: string, lang: LabelLang = "zh"): string {
  if (l1 === "" || l1 === "normal") return LABEL1_NAMES.normal[lang];
  const parts = [labelName(l1, 1, lang)];
  if (l2 !== "") parts.push(labelName(l2, 2, lang));
  if (l3 !== "") parts.push(labelName(l3, 3, lang));
  return parts.join(":");
}
