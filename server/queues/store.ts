import crypto from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { can, type Role } from "../../lib/roles";
import { DEFAULT_QUEUE_ID, type Queue, type QueueCounts, type QueueInput, type QueuePatch } from "../../lib/queues";
import type { Db } from "../store/db";
import { reviewQueues, type QueueRow } from "./schema";
import { loadQueues } from "./routing";

export interface Caller {
  username: string;
  role: Role | null;
}

/** Who may work a queue: supervisors always; else a reviewer named in `users` or of a role in `roles` (both empty: every reviewer). */
export function mayWork(q: Pick<QueueRow, "roles" | "users">, c: Caller): boolean {
  if (!can(c.role, "review:record")) return false;
  if (c.role === "supervisor") return true;
  if (q.roles.length === 0 && q.users.length === 0) return true;
  return (c.role !== null && q.roles.includes(c.role)) || q.users.includes(c.username);
}

const EMPTY: QueueCounts = { open: 0, claimed: 0, oldestOpenAt: null };

/** Open, claimed and oldest open incident of every queue (never-routed open incidents count as the default queue's). */
export async function queueCounts(db: Db): Promise<Record<string, QueueCounts>> {
  const res = (await db.execute(sql`
    SELECT coalesce(queue_id, ${DEFAULT_QUEUE_ID}) AS queue, count(*)::int AS open,
      (count(*) FILTER (WHERE claimed_by IS NOT NULL AND claim_expires_at > now()))::int AS claimed, min(created_at) AS oldest
    FROM incidents WHERE status = 'open' GROUP BY 1`)) as unknown as { rows: Array<{ queue: string; open: number | string; claimed: number | string; oldest: Date | string | null }> };
  const out: Record<string, QueueCounts> = {};
  for (const r of res.rows) out[r.queue] = { open: Number(r.open), claimed: Number(r.claimed), oldestOpenAt: r.oldest ? new Date(r.oldest).toISOString() : null };
  return out;
}

export function toQueue(r: QueueRow, counts: Record<string, QueueCounts>, c: Caller): Queue {
  return { id: r.id, name: r.name, rule: r.rule, order: r.order, roles: r.roles, users: r.users, position: r.isDefault ? -1 : r.position, isDefault: r.isDefault, counts: counts[r.id] ?? EMPTY, mayWork: mayWork(r, c) };
}

export async function listQueues(db: Db, c: Caller): Promise<Queue[]> {
  const [rows, counts] = await Promise.all([loadQueues(db), queueCounts(db)]);
  return rows.map((r) => toQueue(r, counts, c));
}

export async function getQueue(db: Db, id: string): Promise<QueueRow | null> {
  const [row] = await db.select().from(reviewQueues).where(eq(reviewQueues.id, id)).limit(1);
  return row ?? null;
}

export type Change = { ok: true; queue: QueueRow } | { ok: false; status: 400 | 404 | 409; error: string };

const nameTaken = async (db: Db, name: string, except?: string) => {
  const rows = await db.select({ id: reviewQueues.id }).from(reviewQueues).where(sql`lower(${reviewQueues.name}) = lower(${name})`);
  return rows.some((r) => r.id !== except);
};

/** Renumbers the non-default queues 0..n-1, with `id` (if any) at `position` (the default one stays last). */
async function place(db: Db, id: string | null, position: number | undefined): Promise<void> {
  const ordered = (await loadQueues(db)).filter((q) => !q.isDefault);
  const others = ordered.filter((q) => q.id !== id).map((q) => q.id);
  const at = Math.min(position ?? others.length, others.length);
  const list = id === null ? others : [...others.slice(0, at), id, ...others.slice(at)];
  for (const [i, qid] of list.entries()) await db.update(reviewQueues).set({ position: i }).where(eq(reviewQueues.id, qid));
}

export async function createQueue(db: Db, input: QueueInput, by: string): Promise<Change> {
  if (await nameTaken(db, input.name)) return { ok: false, status: 409, error: `a queue named "${input.name}" exists already` };
  const id = crypto.randomBytes(6).toString("hex");
  const now = new Date();
  try {
    await db.insert(reviewQueues).values({ id, name: input.name, position: 1_000_000, rule: input.rule, order: input.order, roles: input.roles, users: input.users, isDefault: false, createdBy: by, createdAt: now, updatedAt: now });
  } catch (err) {
    // the unique name index: another supervisor created the same name a moment ago
    if (/unique|duplicate/i.test(String((err as Error).message) + String((err as { cause?: Error }).cause?.message))) return { ok: false, status: 409, error: `a queue named "${input.name}" exists already` };
    throw err;
  }
  await place(db, id, input.position);
  return { ok: true, queue: (await getQueue(db, id))! };
}

export async function updateQueue(db: Db, id: string, patch: QueuePatch): Promise<Change> {
  const row = await getQueue(db, id);
  if (!row) return { ok: false, status: 404, error: "unknown queue" };
  if (row.isDefault && patch.rule && Object.keys(patch.rule).length > 0) return { ok: false, status: 400, error: "rule: the default queue takes every incident no other queue's rule matches; it has no rule of its own" };
  if (row.isDefault && patch.position !== undefined) return { ok: false, status: 400, error: "position: the default queue is always last" };
  if (patch.name && (await nameTaken(db, patch.name, id))) return { ok: false, status: 409, error: `a queue named "${patch.name}" exists already` };
  const { position, ...fields } = patch;
  await db.update(reviewQueues).set({ ...fields, updatedAt: new Date() }).where(eq(reviewQueues.id, id));
  if (position !== undefined) await place(db, id, position);
  return { ok: true, queue: (await getQueue(db, id))! };
}

export async function deleteQueue(db: Db, id: string): Promise<Change> {
  const row = await getQueue(db, id);
  if (!row) return { ok: false, status: 404, error: "unknown queue" };
  if (row.isDefault) return { ok: false, status: 409, error: "the default queue cannot be deleted: it catches every incident no other queue takes" };
  await db.delete(reviewQueues).where(eq(reviewQueues.id, id));
  await place(db, null, undefined);
  return { ok: true, queue: row };
}
