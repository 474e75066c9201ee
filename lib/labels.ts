// Risk-label catalogue (docs/api.md §5.8): slug → display names. Browser-safe: data and pure functions only.

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
  // frame business labels: objects, animals, plants, gallery matches
  object: { zh: "物体", en: "Object" },
  animal: { zh: "动物", en: "Animal" },
  plant: { zh: "植物", en: "Plant" },
  publicfigure: { zh: "公众人物", en: "Public figure" },
  taintedstar: { zh: "劣迹艺人", en: "Tainted celebrity" },
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
  // frames: face attributes (AGE buckets, GENDER), gallery matches, the prohibited-image hash bank
  nianling: { zh: "年龄", en: "Age" },
  ertong: { zh: "儿童", en: "Child" },
  qingshaonian: { zh: "青少年", en: "Teenager" },
  qingnian: { zh: "青年", en: "Young adult" },
  zhongnian: { zh: "中年", en: "Middle-aged" },
  laonian: { zh: "老年", en: "Elderly" },
  xingbie: { zh: "性别", en: "Gender" },
  nan: { zh: "男性", en: "Male" },
  nv: { zh: "女性", en: "Female" },
  zhengzhirenwu: { zh: "政治人物", en: "Political figure" },
  gongzhongrenwu: { zh: "公众人物", en: "Public figure" },
  liejiyiren: { zh: "劣迹艺人", en: "Tainted celebrity" },
  jinjitupian: { zh: "禁忌图片", en: "Banned image" },
  // frames: object groups (label2) for COCO classes
  jiaotonggongju: { zh: "交通工具", en: "Vehicle" },
  buruleidongwu: { zh: "哺乳动物", en: "Mammal" },
  niaolei: { zh: "鸟类", en: "Bird" },
  shiwu: { zh: "食物", en: "Food" },
  canju: { zh: "餐具", en: "Tableware" },
  jiaju: { zh: "家具", en: "Furniture" },
  dianzichanpin: { zh: "电子产品", en: "Electronics" },
  jiayongdianqi: { zh: "家用电器", en: "Home appliance" },
  yundongqicai: { zh: "运动器材", en: "Sports equipment" },
  zhiwu: { zh: "植物", en: "Plant" },
  wanju: { zh: "玩具", en: "Toy" },
  riyongpin: { zh: "日用品", en: "Daily supplies" },
  fushi: { zh: "服饰", en: "Apparel" },
  // frames: COCO classes (label3)
  qiche: { zh: "汽车", en: "Car" },
  gongjiaoche: { zh: "公交车", en: "Bus" },
  kache: { zh: "卡车", en: "Truck" },
  motuoche: { zh: "摩托车", en: "Motorcycle" },
  zixingche: { zh: "自行车", en: "Bicycle" },
  feiji: { zh: "飞机", en: "Airplane" },
  huoche: { zh: "火车", en: "Train" },
  chuan: { zh: "船", en: "Boat" },
  gou: { zh: "狗", en: "Dog" },
  mao: { zh: "猫", en: "Cat" },
  ma: { zh: "马", en: "Horse" },
  yang: { zh: "羊", en: "Sheep" },
  niu: { zh: "牛", en: "Cow" },
  daxiang: { zh: "大象", en: "Elephant" },
  xiong: { zh: "熊", en: "Bear" },
  banma: { zh: "斑马", en: "Zebra" },
  changjinglu: { zh: "长颈鹿", en: "Giraffe" },
  niao: { zh: "鸟", en: "Bird" },
  xiangjiao: { zh: "香蕉", en: "Banana" },
  pingguo: { zh: "苹果", en: "Apple" },
  sanmingzhi: { zh: "三明治", en: "Sandwich" },
  chengzi: { zh: "橙子", en: "Orange" },
  xilanhua: { zh: "西兰花", en: "Broccoli" },
  huluobo: { zh: "胡萝卜", en: "Carrot" },
  regou: { zh: "热狗", en: "Hot dog" },
  pisa: { zh: "披萨", en: "Pizza" },
  tianquanquan: { zh: "甜甜圈", en: "Donut" },
  dangao: { zh: "蛋糕", en: "Cake" },
  pingzi: { zh: "瓶子", en: "Bottle" },
  jiubei: { zh: "酒杯", en: "Wine glass" },
  beizi: { zh: "杯子", en: "Cup" },
  chazi: { zh: "叉子", en: "Fork" },
  daozi: { zh: "刀", en: "Knife" },
  shaozi: { zh: "勺子", en: "Spoon" },
  wan: { zh: "碗", en: "Bowl" },
  yizi: { zh: "椅子", en: "Chair" },
  shafa: { zh: "沙发", en: "Couch" },
  chuang: { zh: "床", en: "Bed" },
  canzhuo: { zh: "餐桌", en: "Dining table" },
  changdeng: { zh: "长凳", en: "Bench" },
  dianshi: { zh: "电视", en: "TV" },
  bijibendiannao: { zh: "笔记本电脑", en: "Laptop" },
  shubiao: { zh: "鼠标", en: "Mouse" },
  yaokongqi: { zh: "遥控器", en: "Remote control" },
  jianpan: { zh: "键盘", en: "Keyboard" },
  shouji: { zh: "手机", en: "Mobile phone" },
  weibolu: { zh: "微波炉", en: "Microwave" },
  kaoxiang: { zh: "烤箱", en: "Oven" },
  kaomianbaoji: { zh: "烤面包机", en: "Toaster" },
  shuichi: { zh: "水池", en: "Sink" },
  bingxiang: { zh: "冰箱", en: "Refrigerator" },
  feipan: { zh: "飞盘", en: "Frisbee" },
  huaxueban: { zh: "滑雪板", en: "Skis" },
  danbanhuaxue: { zh: "单板滑雪板", en: "Snowboard" },
  qiu: { zh: "球", en: "Sports ball" },
  fengzheng: { zh: "风筝", en: "Kite" },
  bangqiubang: { zh: "棒球棒", en: "Baseball bat" },
  bangqiushoutao: { zh: "棒球手套", en: "Baseball glove" },
  huaban: { zh: "滑板", en: "Skateboard" },
  chonglangban: { zh: "冲浪板", en: "Surfboard" },
  wangqiupai: { zh: "网球拍", en: "Tennis racket" },
  penzai: { zh: "盆栽", en: "Potted plant" },
  wanjuxiong: { zh: "玩具熊", en: "Teddy bear" },
  yusan: { zh: "雨伞", en: "Umbrella" },
  shoutibao: { zh: "手提包", en: "Handbag" },
  beibao: { zh: "背包", en: "Backpack" },
  xinglixiang: { zh: "行李箱", en: "Suitcase" },
  yashua: { zh: "牙刷", en: "Toothbrush" },
  chuifengji: { zh: "吹风机", en: "Hair drier" },
  jiandao: { zh: "剪刀", en: "Scissors" },
  shizhong: { zh: "时钟", en: "Clock" },
  huaping: { zh: "花瓶", en: "Vase" },
  lingdai: { zh: "领带", en: "Tie" },
};

/** riskDescription used when a client's custom list matched (docs/api.md §5.8). */
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
