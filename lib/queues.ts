// Review queues (server/queues): shapes shared by the server, the route handlers and the Review page.
import { globMatch as glob } from "./glob";
import { z } from "zod";
import { ROLES } from "./roles";

export const QUEUE_ORDERS = ["oldest", "worst"] as const;
export type QueueOrder = (typeof QUEUE_ORDERS)[number];
/** The queue that catches every incident no other queue's rule matches; it cannot be deleted. */
export const DEFAULT_QUEUE_ID = "default";

const Slug = z.string().regex(/^[a-z0-9_]{1,40}$/, "a category slug such as ad, porn, politics");
const Ident = z.string().trim().min(1).max(128);
/** A glob: `*` any run of characters, `?` one; without either, a case-insensitive substring. Matched linearly (no regex). */
const Pattern = z.string().trim().min(1).max(200).refine((p) => (p.match(/\*/g)?.length ?? 0) <= 16, "at most 16 * in a pattern");
const few = <T extends z.ZodType>(t: T, max = 50) => z.array(t).max(max);

/** Every field optional; within a field any value matches (OR), across fields all must (AND); an empty rule matches everything. */
export const QueueRule = z
  .object({
    labels: few(Slug),
    levels: few(z.enum(["REVIEW", "REJECT"]), 2),
    kinds: few(z.enum(["stream", "file"]), 2),
    appIds: few(Ident),
    eventIds: few(Ident),
    titlePattern: Pattern,
    tokenIdPattern: Pattern,
    /** names of keyword, image, audio or face lists whose match is among the incident's evidence */
    lists: few(Ident),
  })
  .partial()
  .strict();
export type QueueRule = z.infer<typeof QueueRule>;

const Name = z.string().trim().min(1, "name is required").max(80);
const Username = z.string().regex(/^[A-Za-z0-9_.@-]{1,64}$/, "a username");

export const QueueInput = z
  .object({
    name: Name,
    rule: QueueRule.default({}),
    order: z.enum(QUEUE_ORDERS).default("oldest"),
    /** roles that may work it; with `users` empty too, every role that may record reviews */
    roles: few(z.enum(ROLES), 3).default([]),
    users: few(Username, 200).default([]),
    /** 0 = first; absent = after the other queues (the default queue is always last) */
    position: z.number().int().min(0).max(1000).optional(),
  })
  .strict();
export type QueueInput = z.infer<typeof QueueInput>;

export const QueuePatch = z
  .object({ name: Name, rule: QueueRule, order: z.enum(QUEUE_ORDERS), roles: few(z.enum(ROLES), 3), users: few(Username, 200), position: z.number().int().min(0).max(1000) })
  .partial()
  .strict();
export type QueuePatch = z.infer<typeof QueuePatch>;

export const QueueId = z.string().regex(/^(default|[0-9a-f]{12})$/, "unknown queue");

/** POST /api/queues/<id>/next: incidents the caller skipped on this page, not to be handed back at once. */
export const NextInput = z.object({ skip: z.array(z.string().regex(/^[0-9a-f]{16}$/)).max(200).optional() }).strict();

export interface QueueCounts {
  /** open incidents routed here (claimed ones included) */
  open: number;
  /** of those, held under a live claim */
  claimed: number;
  /** creation time of the oldest open one (ISO), null when none */
  oldestOpenAt: string | null;
}

export interface Queue {
  id: string;
  name: string;
  rule: QueueRule;
  order: QueueOrder;
  roles: string[];
  users: string[];
  position: number;
  isDefault: boolean;
  counts: QueueCounts;
  /** the caller may press Start reviewing on it */
  mayWork: boolean;
}

/** Socket event to INCIDENTS_ROOM: the counts of every queue; `definitions` when queues were created, changed or deleted. */
export interface QueueCountsEvent {
  counts: Record<string, QueueCounts>;
  definitions: boolean;
}

/** What GET /api/incidents/<id> adds: the queue the incident is in, and its live claim. */
export interface IncidentQueueInfo {
  queue: { id: string; name: string } | null;
  claimedBy: string | null;
  claimExpiresAt: string | null;
}

/** Case-insensitive glob (`*`, `?`) over the whole value; without wildcards a substring (lib/glob.ts). */
export const globMatch = (pattern: string, value: string): boolean => glob(pattern, value, { substringWithoutWildcards: true });

/** "12 min", "3 h 5 min": how long the oldest open incident has waited. */
export function ageText(sinceIso: string | null, now = Date.now()): string {
  if (!sinceIso) return "—";
  const s = Math.max(0, Math.round((now - new Date(sinceIso).getTime()) / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  return h < 48 ? `${h} h ${m % 60} min` : `${Math.floor(h / 24)} d`;
}
