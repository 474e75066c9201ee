import type { Uploads } from "./uploads";
import crypto from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { createModerationClient, type ModerationClient } from "../../lib/client";
import type { DashboardConfig, FileSubmitInput, FileSummary, RiskLevel } from "../../lib/dashboard-api";
import type { FileProgressEvent } from "../../lib/events";
import type { HeaderSource } from "../callback/signature";
import type { Capability } from "../detect";
import type { Store } from "../store/db";
import { dashboardFiles } from "../store/schema";
import { toVideoRequest } from "./file-request";
import { receiveFileCallback, type ReceiverAnswer } from "./receiver";
import { createStreamsDashboard } from "./streams";
import { hashToken } from "./tokens";
import { createApiTasks } from "./api-tasks";
import { coverageOfFiles } from "./file-coverage";
import type { QueuedCallback } from "../callback/dispatcher";
import type { StreamEvent, StreamSummary } from "../../lib/dashboard-api";

export interface DashboardOptions {
  store: Store;
  serviceBaseUrl: string;
  accessKey: string;
  embedded: boolean;
  pollIntervalMs: number;
  /** Origin the service can reach this dashboard's receivers on. */
  receiverOrigin: string;
  capabilities: () => Capability[];
  publish: (e: FileProgressEvent) => void;
  publishStreamEvent: (e: StreamEvent) => void;
  publishStreamSummary: (s: StreamSummary) => void;
  /** How the typed client reaches the service (the embedded engine: in process); default: HTTP fetch */
  fetch?: typeof fetch;
  /** Secret the service signs callbacks with; receivers then verify every callback (401 otherwise). */
  signingSecret?: string | null;
  /** Embedded service: accessKey names by key id; its API tasks are then mirrored here (api-tasks.ts). Remote: null. */
  apiKeyNames?: Map<string, string> | null;
  log?: (m: string) => void;
  /** Files uploaded from the Files page (uploads.ts); absent: uploads are refused */
  uploads?: Uploads;
}

export type SubmitAnswer = { ok: true; requestId: string; btId: string } | { ok: false; code?: number; error: string };

export type Dashboard = ReturnType<typeof createDashboard>;


/** The dashboard's server side: talks to a v4 service through the typed client and keeps its own records. */
export function createDashboard(o: DashboardOptions) {
  const client: ModerationClient = createModerationClient({ baseUrl: o.serviceBaseUrl, accessKey: o.accessKey, fetch: o.fetch });
  const db = o.store.db;
  const streams = createStreamsDashboard({ db, client, serviceBaseUrl: o.serviceBaseUrl, receiverOrigin: o.receiverOrigin, publishEvent: o.publishStreamEvent, publishSummary: o.publishStreamSummary, signingSecret: o.signingSecret, embedded: o.embedded });
  const api = o.apiKeyNames ? createApiTasks({ streams: { db, publishEvent: o.publishStreamEvent, publishSummary: o.publishStreamSummary }, serviceBaseUrl: o.serviceBaseUrl, keyNames: o.apiKeyNames, log: o.log ?? (() => undefined) }) : null;

  return {
    // the wall also lists the embedded service's API streams, including those with nothing called back yet
    streams: {
      ...streams,
      async list() {
        await api?.sync();
        return streams.list();
      },
    },
    /** A callback body the embedded engine queued (server/app.ts): an API stream's is recorded as its receiver would. */
    mirrorCallback: (q: QueuedCallback): Promise<void> => api?.onQueued(q) ?? Promise.resolve(),
    config: (): DashboardConfig => ({ serviceBaseUrl: o.serviceBaseUrl, embedded: o.embedded, pollIntervalMs: o.pollIntervalMs, uploadMaxMb: o.uploads ? Math.round(o.uploads.maxBytes / 1048576) : null }),
    capabilities: () => o.capabilities(),

    async listFiles(): Promise<FileSummary[]> {
      await api?.sync();
      const rows = await db.select().from(dashboardFiles).orderBy(desc(dashboardFiles.createdAt)).limit(200);
      const coverage = await coverageOfFiles(db, rows);
      return rows.map((r) => ({
        requestId: r.requestId,
        btId: r.btId,
        url: r.url,
        title: r.title,
        status: r.status,
        riskLevel: (r.riskLevel as RiskLevel | null) ?? null,
        code: r.code,
        framesDone: r.framesDone,
        framesTotal: r.framesTotal,
        createdAt: r.createdAt.toISOString(),
        callbackReceivedAt: r.callbackReceivedAt?.toISOString() ?? null,
        origin: r.origin,
        keyName: r.keyName,
        requested: coverage.get(r.requestId)?.requested ?? null,
        coverage: r.status === "done" ? (coverage.get(r.requestId)?.coverage ?? null) : null,
      }));
    },

    /**
     * POST /api/files as multipart/form-data: the `file` part is stored, the `input` part (the JSON body without
     * `url`) is validated, and the file is submitted by a signed same-origin link the service fetches.
     */
    async uploadFile(req: Request, parse: (input: unknown) => { ok: true; data: FileSubmitInput } | { ok: false; error: string }): Promise<SubmitAnswer & { status?: number; file?: { name: string; size: number } }> {
      if (!o.uploads) return { ok: false, status: 501, error: "uploads are not available on this server" };
      const got = await o.uploads.receive(req);
      if (!got.ok) return { ok: false, status: got.status, error: got.error };
      const parsed = parse({ ...(typeof got.input === "object" && got.input !== null ? got.input : {}), url: "upload" });
      if (!parsed.ok) {
        await o.uploads.discard(got.file);
        return { ok: false, status: 400, error: parsed.error };
      }
      const link = o.uploads.link(o.receiverOrigin, got.file);
      const answer = await this.submitFile({ ...parsed.data, url: link, title: parsed.data.title?.trim() || got.file.name }, `upload: ${got.file.name}`);
      if (!answer.ok) await o.uploads.discard(got.file);
      return { ...answer, file: { name: got.file.name, size: got.file.size } };
    },

    serveUpload: (url: URL, id: string, name: string) => (o.uploads ? o.uploads.serve(url, id, name) : Promise.resolve(new Response("not found", { status: 404 }))),

    async submitFile(input: FileSubmitInput, shownUrl?: string): Promise<SubmitAnswer> {
      const token = crypto.randomBytes(24).toString("base64url");
      const btId = `dash-${Date.now().toString(36)}-${crypto.randomBytes(4).toString("hex")}`;
      const callback = input.callback?.trim() || `${o.receiverOrigin}/api/receiver/file/${token}`;
      const built = toVideoRequest(input, btId, callback);
      if (!built.ok) return built;
      // the body was built from the form (toVideoRequest); the service validates it against the contract
      const ack = await client.video(built.body as Parameters<ModerationClient["video"]>[0]).catch((err: Error) => ({ code: -1, message: err.message, requestId: "" }));
      if (ack.code !== 1100) return { ok: false, code: ack.code > 0 ? ack.code : undefined, error: ack.message };
      await db.insert(dashboardFiles).values({
        requestId: ack.requestId,
        btId,
        // an upload's signed link is not shown (nor kept): its name is
        url: shownUrl ?? input.url,
        title: input.title?.trim() || null,
        serviceBaseUrl: o.serviceBaseUrl,
        receiverToken: hashToken(token),
        status: "queued",
        createdAt: new Date(),
        tokenId: input.tokenId?.trim() || null,
      });
      return { ok: true, requestId: ack.requestId, btId };
    },

    /**
     * The service's Query answer, as it gave it; records completion for the list. An API file (addressed by its
     * requestId) is read from its task instead: Query as the dashboard would answer 1902.
     */
    async fileResult(btId: string): Promise<Record<string, unknown>> {
      const mirrored = await api?.fileResult(btId);
      if (mirrored) return mirrored;
      const res = await client.videoQuery(btId);
      if (res.code === 1100 && typeof res.riskLevel === "string") {
        await db.update(dashboardFiles).set({ status: "done", riskLevel: res.riskLevel, code: 1100 }).where(and(eq(dashboardFiles.btId, btId), eq(dashboardFiles.origin, "dashboard")));
      }
      return res;
    },

    /** Progress pushed by the embedded engine: persisted for the list and fanned out live. */
    async onFileProgress(e: FileProgressEvent): Promise<void> {
      o.publish(e);
      await api?.onFileProgress(e);
      if (e.status === "processing" && e.framesDone % 5 !== 0 && e.framesDone !== e.framesTotal) return;
      await db
        .update(dashboardFiles)
        .set({ status: e.status, framesDone: e.framesDone, framesTotal: e.framesTotal, ...(e.riskLevel ? { riskLevel: e.riskLevel } : {}), ...(e.code ? { code: e.code } : {}) })
        .where(eq(dashboardFiles.requestId, e.requestId));
    },

    receiveFileCallback: (token: string, raw: string, headers: HeaderSource): Promise<ReceiverAnswer> => receiveFileCallback({ db, publish: o.publish, signingSecret: o.signingSecret ?? null }, hashToken(token), raw, headers),
  };
}
