import type { RuleAction, RuleInput, RuleMode } from "@/lib/rules";

/** The editor's flat state ⇄ a rule body (lists as comma-separated text). */
export interface RuleForm {
  name: string;
  mode: RuleMode;
  labels: string;
  levels: { REVIEW: boolean; REJECT: boolean };
  lists: string;
  minScore: string;
  kinds: { stream: boolean; file: boolean };
  titlePattern: string;
  tokenIdPattern: string;
  count: string;
  withinSec: string;
  close: boolean;
  alert: boolean;
  confirm: boolean;
  webhook: string;
  stopAfterMatch: boolean;
}

export const EMPTY_FORM: RuleForm = {
  name: "", mode: "shadow", labels: "ad", levels: { REVIEW: false, REJECT: true }, lists: "", minScore: "", kinds: { stream: true, file: false },
  titlePattern: "", tokenIdPattern: "", count: "3", withinSec: "30", close: true, alert: true, confirm: false, webhook: "", stopAfterMatch: false,
};

const split = (s: string) => s.split(",").map((x) => x.trim()).filter(Boolean);

export function toBody(f: RuleForm): RuleInput {
  const levels = (["REVIEW", "REJECT"] as const).filter((l) => f.levels[l]);
  const kinds = (["stream", "file"] as const).filter((k) => f.kinds[k]);
  const then: RuleAction[] = [];
  if (f.close) then.push({ action: "close" });
  if (f.alert) then.push({ action: "alert" });
  if (f.confirm) then.push({ action: "confirm" });
  if (f.webhook.trim()) then.push({ action: "webhook", url: f.webhook.trim() });
  return {
    name: f.name.trim(),
    mode: f.mode,
    stopAfterMatch: f.stopAfterMatch,
    when: {
      ...(split(f.labels).length ? { labels: split(f.labels) } : {}),
      ...(levels.length ? { levels } : {}),
      ...(split(f.lists).length ? { lists: split(f.lists) } : {}),
      ...(f.minScore.trim() ? { minScore: Number(f.minScore) } : {}),
      ...(kinds.length ? { kinds } : {}),
      ...(f.titlePattern.trim() ? { titlePattern: f.titlePattern.trim() } : {}),
      ...(f.tokenIdPattern.trim() ? { tokenIdPattern: f.tokenIdPattern.trim() } : {}),
      count: Number(f.count) || 1,
      withinSec: Number(f.withinSec) || 60,
    },
    then,
  };
}

export function toForm(r: RuleInput): RuleForm {
  const has = (a: RuleAction["action"]) => r.then.some((x) => x.action === a);
  const hook = r.then.find((x) => x.action === "webhook");
  return {
    name: r.name, mode: r.mode, labels: (r.when.labels ?? []).join(", "),
    levels: { REVIEW: r.when.levels?.includes("REVIEW") ?? false, REJECT: r.when.levels?.includes("REJECT") ?? false },
    lists: (r.when.lists ?? []).join(", "), minScore: r.when.minScore?.toString() ?? "",
    kinds: { stream: r.when.kinds?.includes("stream") ?? false, file: r.when.kinds?.includes("file") ?? false },
    titlePattern: r.when.titlePattern ?? "", tokenIdPattern: r.when.tokenIdPattern ?? "",
    count: String(r.when.count), withinSec: String(r.when.withinSec),
    close: has("close"), alert: has("alert"), confirm: has("confirm"), webhook: hook && hook.action === "webhook" ? hook.url : "", stopAfterMatch: r.stopAfterMatch,
  };
}

/** "3 REJECT ad hits within 30 s → close the stream, alert" */
export function summary(r: RuleInput): string {
  const w = r.when;
  const what = [w.levels?.join("/"), w.labels?.join("/"), "hit"].filter(Boolean).join(" ");
  const cond = w.incident ? `an incident reaches ${w.incident.minHits ?? 1} hits${w.incident.level ? ` at ${w.incident.level}` : ""}` : `${w.count} ${what}${w.count === 1 ? "" : "s"} within ${w.withinSec} s`;
  return `${cond} → ${r.then.map((a) => (a.action === "webhook" ? "webhook" : a.action)).join(", ")}`;
}
