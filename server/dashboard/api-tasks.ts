import crypto from "node:crypto";
import { and, desc, eq, gt, ne, or, sql } from "drizzle-orm";
import { Code, codeMessage } from "../../lib/contract/codes";
import type { FileProgressEvent } from "../../lib/events";
import type { QueuedCallback } from "../callback/dispatcher";
import { feedIncidents } from "../incidents/feed";
import { keyId } from "../service/access-keys";
import { DASHBOARD_PRINCIPAL } from "../service/principals";
import { withoutPassThrough } from "../task/video-file";
import { dashboardFiles, dashboardStreams, tasks, type TaskRow } from "../store/schema";
import { acceptStreamCallback } from "./stream-receiver";
import { toSummary, type StreamRow, type StreamsDeps } from "./stream-row";
import { hashToken } from "./tokens";

export const GENERATED_KEY_NAME = "generated key";
export const defaultKeyName = (id: string) => `API key ${id.slice(0, 6)}`;

/** keyId → the name the dashboard shows: ACCESS_KEY_NAMES in the order of MODERATION_ACCESS_KEYS. Never the key. */
export function accessKeyNames(keys: string[], names: string[], generated: boolean): Map<string, string> {
  return new Map(keys.map((k, i) => [keyId(k), generated ? GENERATED_KEY_NAME : names[i]?.trim() || defaultKeyName(keyId(k))]));
}

export interface ApiTasksDeps {
  streams: Pick<StreamsDeps, "db" | "publishEvent" | "publishSummary">;
  serviceBaseUrl: string;
  keyNames: Map<string, string>;
  log: (m: string) => void;
}

interface Owner {
  task: TaskRow;
  keyName: string;
}

type FileStatus = (typeof dashboardFiles.$inferSelect)["status"];
const FILE_STATUSES: readonly string[] = ["queued", "processing", "done", "failed"] satisfies FileStatus[];
const str = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v.trim() : null);
/** Mirrored rows get a receiver token nobody is ever given: only the mirror writes them. */
const noReceiver = () => hashToken(crypto.randomBytes(24).toString("base64url"));
/** Shown as submitted, minus any user:password@ (the dashboard's own URLs never carry one). */
function withoutUserinfo(url: string): string {
  try {
    const u = new URL(url);
    if (!u.username && !u.password) return url;
    u.username = "";
    u.password = "";
    return u.toString();
  } catch {
    return url;
  }
}
/**
 * One of the task's media links as a same-origin path ("/media/…?exp&sig"), like the dashboard's own results (any
 * host name, any CSP): a link that starts with the very base the task's links were built on, or whose URL has the
 * base's origin and a /media/ path. Read per value, never by replacing text in JSON (where a base with a character
 * JSON escapes, e.g. `evil.example\\x`, never matched and the frames stayed off-origin).
 */
export function relativeMediaLink(value: string, baseUrl: string): string {
  if (!baseUrl || !value.includes("/media/")) return value;
  if (value.startsWith(`${baseUrl}/media/`)) return value.slice(baseUrl.length);
  try {
    const base = new URL(baseUrl);
    const link = new URL(value);
    if (link.origin === base.origin && link.pathname.startsWith("/media/") && !link.username && !link.password) return link.pathname + link.search;
  } catch {
    // not an absolute URL: left as it is
  }
  return value;
}

/** Every string of a JSON value with its media links made relative (relativeMediaLink). */
export function relativeLinks(v: unknown, baseUrl: string): unknown {
  if (typeof v === "string") return relativeMediaLink(v, baseUrl);
  if (Array.isArray(v)) return v.map((x) => relativeLinks(x, baseUrl));
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, relativeLinks(x, baseUrl)]));
  return v;
}
const sameOriginBody = (body: Record<string, unknown>, baseUrl: string) => relativeLinks(body, baseUrl) as Record<string, unknown>;
/** A callback body (JSON text) with its media links relative; a body that is not JSON is passed on as it is. */
function sameOrigin(json: string, baseUrl: string): string {
  if (!baseUrl) return json;
  try {
    return JSON.stringify(relativeLinks(JSON.parse(json), baseUrl));
  } catch {
    return json;
  }
}

/**
 * Tasks submitted through the public API of the embedded service, mirrored onto the dashboard (marked with the
 * accessKey's name): stream callbacks go through the stream receiver's own path as the outbox queues them,
 * files are recorded from their progress and their result read from the task row. The keys' own Query/Close
 * are untouched, and the dashboard's tasks stay invisible to them.
 */
export function createApiTasks(d: ApiTasksDeps) {
  const db = d.streams.db;
  const owners = new Map<string, Promise<Owner | null>>();
  const chains = new Map<string, Promise<void>>();
  const filesSeen = new Set<string>();
  let syncing: Promise<void> | null = null;

  /** The task's owner when it is an accessKey's (null: the dashboard's own, or unknown); cached per task. */
  function ownerOf(requestId: string): Promise<Owner | null> {
    let p = owners.get(requestId);
    if (!p) {
      if (owners.size > 5000) owners.clear();
      p = db.select().from(tasks).where(eq(tasks.requestId, requestId)).limit(1).then(([t]) => (t && t.keyId !== DASHBOARD_PRINCIPAL ? { task: t, keyName: d.keyNames.get(t.keyId) ?? defaultKeyName(t.keyId) } : null));
      owners.set(requestId, p);
      p.catch(() => owners.delete(requestId));
    }
    return p;
  }

  /** One task's mirror work runs in order (a stream's callbacks build on each other's counts). */
  function serial(requestId: string, job: () => Promise<void>): Promise<void> {
    const next = (chains.get(requestId) ?? Promise.resolve()).then(job);
    const tail = next.catch(() => undefined);
    chains.set(requestId, tail);
    void tail.then(() => chains.get(requestId) === tail && chains.delete(requestId));
    return next;
  }

  const loadStream = async (id: string) => (await db.select().from(dashboardStreams).where(eq(dashboardStreams.requestId, id)).limit(1))[0];

  async function ensureStream({ task, keyName }: Owner): Promise<StreamRow> {
    const held = await loadStream(task.requestId);
    if (held) return held;
    const data = (task.request.data ?? {}) as Record<string, unknown>;
    await db
      .insert(dashboardStreams)
      .values({
        requestId: task.requestId,
        kind: task.kind === "audiostream" ? "audio" : "video",
        url: withoutUserinfo(String(data.url ?? "")),
        title: str(data.streamName) ?? str(data.liveTitle),
        serviceBaseUrl: d.serviceBaseUrl,
        receiverToken: noReceiver(),
        status: "running",
        startedAt: task.createdAt,
        detectStep: typeof data.detectStep === "number" ? data.detectStep : null,
        origin: "api",
        keyName,
        tokenId: str(data.tokenId),
      })
      .onConflictDoNothing();
    const row = (await loadStream(task.requestId))!;
    d.streams.publishSummary(toSummary(row));
    return row;
  }

  async function ensureFile({ task, keyName }: Owner): Promise<void> {
    if (filesSeen.has(task.requestId)) return;
    const data = (task.request.data ?? {}) as Record<string, unknown>;
    await db
      .insert(dashboardFiles)
      .values({
        requestId: task.requestId,
        btId: task.btId ?? "",
        url: withoutUserinfo(String(data.url ?? "")),
        title: str(data.videoTitle),
        serviceBaseUrl: d.serviceBaseUrl,
        receiverToken: noReceiver(),
        status: FILE_STATUSES.includes(task.status) ? (task.status as FileStatus) : "queued",
        framesDone: task.progress.framesDone,
        framesTotal: task.progress.framesTotal,
        createdAt: task.createdAt,
        origin: "api",
        keyName,
        tokenId: str(data.tokenId),
      })
      .onConflictDoNothing();
    filesSeen.add(task.requestId);
  }

  /** A finished API file: its outcome on the list, and its hits to incidents, as the file receiver does. */
  async function recordFileResult(requestId: string): Promise<void> {
    const [t] = await db.select().from(tasks).where(eq(tasks.requestId, requestId)).limit(1);
    if (!t?.result) return;
    const done = t.resultCode === Code.SUCCESS;
    const riskLevel = str(t.result.riskLevel);
    await db.update(dashboardFiles).set({ status: done ? "done" : "failed", code: t.resultCode, riskLevel }).where(eq(dashboardFiles.requestId, requestId));
    if (done) await feedIncidents(db, { kind: "file", requestId, body: sameOriginBody(withoutPassThrough(t.result), t.baseUrl) });
  }

  async function syncOnce(): Promise<void> {
    // accessKeys' tasks nothing has mirrored yet: files still queued, streams with nothing called back so far
    const missing = await db
      .select()
      .from(tasks)
      .where(and(ne(tasks.keyId, DASHBOARD_PRINCIPAL), gt(tasks.expiresAt, new Date()), sql`NOT EXISTS (SELECT 1 FROM dashboard_files f WHERE f.request_id = ${tasks.requestId}) AND NOT EXISTS (SELECT 1 FROM dashboard_streams s WHERE s.request_id = ${tasks.requestId})`))
      .orderBy(desc(tasks.createdAt))
      .limit(200);
    for (const task of missing) {
      const owner = { task, keyName: d.keyNames.get(task.keyId) ?? defaultKeyName(task.keyId) };
      await serial(task.requestId, async () => {
        if (task.kind !== "video") return void (await ensureStream(owner));
        await ensureFile(owner);
        if (task.result) await recordFileResult(task.requestId);
      });
    }
    // API streams that ended without a stream-end called back (returnFinishInfo 0)
    const ended = await db
      .select({ requestId: dashboardStreams.requestId, state: tasks.state, at: tasks.updatedAt })
      .from(dashboardStreams)
      .innerJoin(tasks, eq(tasks.requestId, dashboardStreams.requestId))
      .where(and(eq(dashboardStreams.origin, "api"), eq(dashboardStreams.status, "running"), eq(tasks.status, "ended")));
    for (const e of ended) {
      const reason = e.state?.endReason;
      await serial(e.requestId, async () => {
        await db
          .update(dashboardStreams)
          .set({ status: "ended", endedAt: e.at, endErrorCode: e.state?.endErrorCode ?? null, endReason: reason === "closed" ? "closed" : reason === "failed" || reason === "restart-failed" ? "pull failed" : "ended" })
          .where(and(eq(dashboardStreams.requestId, e.requestId), eq(dashboardStreams.status, "running")));
        const row = await loadStream(e.requestId);
        if (row) d.streams.publishSummary(toSummary(row));
      });
    }
  }

  return {
    /** Every callback body the embedded engine queued: an API stream's goes through the stream receiver's path. */
    onQueued(q: QueuedCallback): Promise<void> {
      return serial(q.requestId, async () => {
        const owner = await ownerOf(q.requestId);
        if (!owner || owner.task.kind === "video") return;
        const row = await ensureStream(owner);
        const answer = await acceptStreamCallback(d.streams, row, sameOrigin(q.body, owner.task.baseUrl), q.id);
        if (answer.status !== 200) d.log(`dashboard: API stream ${q.requestId}: callback not recorded: ${answer.body.error}`);
      });
    },

    /** Progress of any file: an API file gets its row (before the list is updated) and, once ended, its result. */
    onFileProgress(e: FileProgressEvent): Promise<void> {
      return serial(e.requestId, async () => {
        const owner = await ownerOf(e.requestId);
        if (!owner || owner.task.kind !== "video") return;
        await ensureFile(owner);
        if (e.status === "done" || e.status === "failed") await recordFileResult(e.requestId);
      });
    },

    /** Brings the lists up to date with tasks no event has shown yet (calls at once share one run). */
    sync(): Promise<void> {
      syncing ??= syncOnce().finally(() => (syncing = null));
      return syncing;
    },

    /**
     * An API file's result as stored on its task (Query as the dashboard would answer 1902), by requestId, or by btId
     * (the newest API file with it; incident links use the btId) unless a dashboard file has that btId. Null otherwise.
     */
    async fileResult(id: string): Promise<Record<string, unknown> | null> {
      const files = await db
        .select({ requestId: dashboardFiles.requestId, btId: dashboardFiles.btId, origin: dashboardFiles.origin })
        .from(dashboardFiles)
        .where(or(eq(dashboardFiles.requestId, id), eq(dashboardFiles.btId, id)))
        .orderBy(desc(dashboardFiles.createdAt));
      const f = files.find((r) => r.requestId === id) ?? (files.some((r) => r.origin === "dashboard") ? undefined : files[0]);
      if (f?.origin !== "api") return null;
      const requestId = f.requestId;
      const [t] = await db.select().from(tasks).where(eq(tasks.requestId, requestId)).limit(1);
      if (!t || t.expiresAt.getTime() < Date.now()) return { code: Code.INVALID_PARAMS, message: `${codeMessage(Code.INVALID_PARAMS)}: the result is no longer kept (retention)`, requestId, btId: f.btId };
      if (!t.result) return { code: Code.PROCESSING, message: codeMessage(Code.PROCESSING), requestId, btId: f.btId };
      return sameOriginBody(withoutPassThrough(t.result), t.baseUrl);
    },
  };
}

export type ApiTasks = ReturnType<typeof createApiTasks>;
