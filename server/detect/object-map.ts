// COCO classes (human's CenterNet) → the contract's imgBusinessType values, as data. No model code here.

export interface ObjectGroup {
  /** imgBusinessType this group answers */
  type: string;
  /** businessLabel1 / businessLabel2 of every class in the group */
  label1: "object" | "animal" | "plant";
  label2: string;
  /** COCO class name → businessLabel3 (pinyin slug, display names in lib/labels.ts) */
  classes: Readonly<Record<string, string>>;
}

/** Only where the COCO class means what the business type means; each class belongs to one group. */
export const OBJECT_GROUPS: readonly ObjectGroup[] = [
  {
    type: "VEHICLE", label1: "object", label2: "jiaotonggongju",
    classes: { car: "qiche", bus: "gongjiaoche", truck: "kache", motorcycle: "motuoche", bicycle: "zixingche", airplane: "feiji", train: "huoche", boat: "chuan" },
  },
  {
    type: "MAMMAL", label1: "animal", label2: "buruleidongwu",
    classes: { dog: "gou", cat: "mao", horse: "ma", sheep: "yang", cow: "niu", elephant: "daxiang", bear: "xiong", zebra: "banma", giraffe: "changjinglu" },
  },
  { type: "BIRDS", label1: "animal", label2: "niaolei", classes: { bird: "niao" } },
  {
    type: "FOOD", label1: "object", label2: "shiwu",
    classes: {
      banana: "xiangjiao", apple: "pingguo", sandwich: "sanmingzhi", orange: "chengzi", broccoli: "xilanhua", carrot: "huluobo",
      "hot dog": "regou", pizza: "pisa", donut: "tianquanquan", cake: "dangao",
    },
  },
  {
    type: "TABLEWARE", label1: "object", label2: "canju",
    classes: { bottle: "pingzi", "wine glass": "jiubei", cup: "beizi", fork: "chazi", knife: "daozi", spoon: "shaozi", bowl: "wan" },
  },
  {
    type: "FURNITURE", label1: "object", label2: "jiaju",
    classes: { chair: "yizi", couch: "shafa", bed: "chuang", "dining table": "canzhuo", bench: "changdeng" },
  },
  {
    type: "ELECTRONIC", label1: "object", label2: "dianzichanpin",
    classes: { tv: "dianshi", laptop: "bijibendiannao", mouse: "shubiao", remote: "yaokongqi", keyboard: "jianpan", "cell phone": "shouji" },
  },
  {
    type: "HOMEAPPLICATION", label1: "object", label2: "jiayongdianqi",
    classes: { microwave: "weibolu", oven: "kaoxiang", toaster: "kaomianbaoji", sink: "shuichi", refrigerator: "bingxiang" },
  },
  {
    type: "SPORTEQUIPMENT", label1: "object", label2: "yundongqicai",
    classes: {
      frisbee: "feipan", skis: "huaxueban", snowboard: "danbanhuaxue", "sports ball": "qiu", kite: "fengzheng", "baseball bat": "bangqiubang",
      "baseball glove": "bangqiushoutao", skateboard: "huaban", surfboard: "chonglangban", "tennis racket": "wangqiupai",
    },
  },
  { type: "PLANT", label1: "plant", label2: "zhiwu", classes: { "potted plant": "penzai" } },
  { type: "TOY", label1: "object", label2: "wanju", classes: { "teddy bear": "wanjuxiong" } },
  {
    type: "DAILYSUPPLIES", label1: "object", label2: "riyongpin",
    classes: {
      umbrella: "yusan", handbag: "shoutibao", backpack: "beibao", suitcase: "xinglixiang", toothbrush: "yashua", "hair drier": "chuifengji",
      scissors: "jiandao", clock: "shizhong", vase: "huaping",
    },
  },
  { type: "FASHION", label1: "object", label2: "fushi", classes: { tie: "lingdai" } },
];

/** COCO classes CenterNet knows that map to no business type (person feeds persons[] instead). */
export const UNMAPPED_COCO_CLASSES = ["person", "traffic light", "fire hydrant", "stop sign", "parking meter", "toilet", "book"] as const;

const BY_TYPE = new Map(OBJECT_GROUPS.map((g) => [g.type, g]));
const BY_CLASS = new Map(OBJECT_GROUPS.flatMap((g) => Object.keys(g.classes).map((c) => [c, g] as const)));

export function objectGroupForType(type: string): ObjectGroup | undefined {
  return BY_TYPE.get(type);
}

export function objectGroupForClass(cocoClass: string): ObjectGroup | undefined {
  return BY_CLASS.get(cocoClass);
}

/** Why an imgBusinessType has no object engine (used by capabilities). */
export const OBJECT_TYPE_GAPS: Readonly<Record<string, string>> = {
  BUILDING: "no COCO class for buildings",
  OFFICESUPPLIES: "no COCO class for office supplies (COCO `book` is too loose a fit)",
  KITCHENWARE: "COCO has no pots or pans; its cutlery and bowls are reported as TABLEWARE",
  REPTILE: "no COCO class for reptiles", FISH: "no COCO class for fish", ARTHROPOD: "no COCO class for arthropods",
  COELENTERATE: "no COCO class for coelenterates", MOLLUSKS: "no COCO class for molluscs", CRUSTACEAN: "no COCO class for crustaceans",
  MAKEUP: "no COCO class for cosmetics", DRUGS: "no COCO class for medicines", PAINTING: "no COCO class for paintings",
  MEDICALIMAGE: "no COCO class for medical images", CONSTELLATION: "no COCO class for astrology items",
  KEEPSAKE: "no COCO class for souvenirs", LOTTERY: "no COCO class for lottery tickets", LICENCEPLATE: "no licence-plate detector",
};
