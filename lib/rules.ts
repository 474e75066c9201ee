// Rules that act on their own (issue #27): shared by the API (zod at the edge) and the Rules page.
import { z } from "zod";

export const RULE_MODES = ["off", "shadow", "live"] as const;
export type RuleMode = (typeof RULE_MODES)[number];
export const RULE_ACTIONS = ["close", "alert", "queue", "assign", "confirm", "webhook"] as const;
export type RuleActionName = (typeof RULE_ACTIONS)[number];

/** A glob over a title or tokenId: `*` any run, `?` one character; matched case-insensitively, whole string. */
const Pattern = z.string().trim().min(1).max(200);
const Names = (max: number) => z.array(z.string().trim().min(1).max(max)).min(1).max(50);

export const RuleWhen = z
  .object({
    labels: Names(64).optional().describe("category riskLabel1 slugs (ad, porn, politics, …)"),
    levels: z.array(z.enum(["REVIEW", "REJECT"])).min(1).max(2).optional(),
    lists: Names(128).optional().describe("reference or keyword list names: a hit matches when it matched an entry of one"),
    minScore: z.number().min(0).max(1).optional(),
    kinds: z.array(z.enum(["stream", "file"])).min(1).max(2).optional(),
    appIds: Names(64).optional(),
    eventIds: Names(64).optional(),
    titlePattern: Pattern.optional(),
    tokenIdPattern: Pattern.optional(),
    count: z.int().min(1).max(10_000).default(1).describe("matching hits needed within withinSec"),
    withinSec: z.int().min(1).max(86_400).default(60),
    incident: z
      .object({ minHits: z.int().min(1).max(100_000).optional(), level: z.enum(["REVIEW", "REJECT"]).optional() })
      .strict()
      .optional()
      .describe("instead of (or beside) the hit count: an incident of the source reaches N hits / this level"),
  })
  .strict();
export type RuleWhen = z.infer<typeof RuleWhen>;

const HttpUrl = z.url({ protocol: /^https?$/ }).max(2048);
export const RuleAction = z.discriminatedUnion("action", [
  z.object({ action: z.literal("close"), reason: z.string().trim().max(200).optional() }).strict(),
  z.object({ action: z.literal("alert"), message: z.string().trim().max(200).optional() }).strict(),
  z.object({ action: z.literal("queue"), queue: z.string().trim().min(1).max(64) }).strict(),
  z.object({ action: z.literal("assign"), assignee: z.string().trim().min(1).max(64) }).strict(),
  z.object({ action: z.literal("confirm"), note: z.string().trim().max(500).optional() }).strict(),
  z.object({ action: z.literal("webhook"), url: HttpUrl, secret: z.string().min(16).max(200).optional() }).strict(),
]);
export type RuleAction = z.infer<typeof RuleAction>;

export const RuleInput = z
  .object({
    name: z.string().trim().min(1).max(80),
    description: z.string().trim().max(500).optional(),
    mode: z.enum(RULE_MODES).default("shadow"),
    when: RuleWhen,
    then: z.array(RuleAction).min(1).max(6),
    stopAfterMatch: z.boolean().default(false),
  })
  .strict()
  .superRefine((r, ctx) => {
    const once = new Set<string>();
    for (const [i, a] of r.then.entries()) {
      if (a.action !== "webhook" && once.has(a.action)) ctx.addIssue({ code: "custom", path: ["then", i], message: `action "${a.action}" is listed twice` });
      once.add(a.action);
    }
  });
export type RuleInput = z.infer<typeof RuleInput>;
export const RulePatch = z
  .object({
    name: z.string().trim().min(1).max(80).optional(),
    description: z.string().trim().max(500).optional(),
    mode: z.enum(RULE_MODES).optional(),
    when: RuleWhen.optional(),
    then: z.array(RuleAction).min(1).max(6).optional(),
    stopAfterMatch: z.boolean().optional(),
    position: z.int().min(0).max(10_000).optional(),
  })
  .strict();
export type RulePatch = z.infer<typeof RulePatch>;

export interface Rule extends RuleInput {
  id: string;
  version: number;
  position: number;
  createdBy: string;
  updatedBy: string;
  updatedAt: string;
}

/** One hit as a rule sees it (from a frame or segment of a stream or file). */
export interface RuleHit {
  itemId: string;
  /** capture time: Unix s for streams, offset s for files */
  t: number;
  label: string;
  level: "REVIEW" | "REJECT";
  score: number;
  lists: string[];
  mediaUrl: string | null;
}

export interface RuleActivity {
  id: string;
  at: string;
  ruleId: string;
  ruleVersion: number;
  requestId: string;
  sourceKind: "stream" | "file";
  title: string | null;
  mode: "shadow" | "live";
  action: RuleActionName;
  /** true: the action ran (live); false: recorded only (shadow), or refused (`outcome` says why) */
  acted: boolean;
  outcome: string;
  hits: RuleHit[];
}

export const BacktestInput = z
  .object({
    rule: z.union([RuleInput, z.string().regex(/^[0-9a-f]{16}$/)]).describe("a draft rule, or a stored rule's id"),
    since: z.union([z.iso.datetime({ offset: true }), z.int().min(0)]).optional().describe("ISO time or Unix s; default 7 days ago"),
    days: z.int().min(1).max(90).optional(),
  })
  .strict();
export type BacktestInput = z.infer<typeof BacktestInput>;

/** Case-insensitive whole-string glob: `*` any run, `?` one character (lib/glob.ts). */
export { globMatch } from "./glob";

export interface BacktestSource {
  requestId: string;
  kind: "stream" | "file";
  title: string | null;
  /** when the rule would first have acted: Unix s (streams) or offset s (files) */
  firstAt: number;
  fires: number;
  actions: string[];
  hits: RuleHit[];
  /** the reviewers' later decisions on this source's incidents */
  decisions: { confirmed: number; cleared: number; escalated: number; open: number };
}
export interface BacktestResult {
  since: string;
  hitsRead: number;
  truncated: boolean;
  sources: BacktestSource[];
  summary: { sources: number; wouldClose: number; confirmedViolations: number; cleared: number; undecided: number };
}
export interface BacktestJob {
  id: string;
  state: "running" | "done" | "cancelled" | "failed";
  progress: { hitsRead: number; of: number | null };
  result?: BacktestResult;
  error?: string;
}
