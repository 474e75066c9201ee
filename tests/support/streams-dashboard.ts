// The dashboard's stream record over a real store (PGlite in a temporary directory), for tests of the receiver's
// bookkeeping. No service stands behind it: the client is never called. Receiver tokens are `token-<requestId>`.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { ModerationClient } from "../../lib/client";
import type { StreamEvent, StreamSummary } from "../../lib/dashboard-api";
import { createStreamsDashboard } from "../../server/dashboard/streams";
import { hashToken } from "../../server/dashboard/tokens";
import { openStore, type Store } from "../../server/store/db";
import { dashboardStreams } from "../../server/store/schema";

export interface StreamsUnderTest {
  store: Store;
  streams: ReturnType<typeof createStreamsDashboard>;
  /** a running video stream whose receiver token is `token-<requestId>` */
  addStream(requestId: string, o?: { detectStep?: number | null }): Promise<void>;
  close(): Promise<void>;
}

export async function openStreamsDashboard(prefix: string, publish: { event?: (e: StreamEvent) => void; summary?: (s: StreamSummary) => void } = {}): Promise<StreamsUnderTest> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  const store = await openStore({ dataDir, databaseUrl: null });
  const streams = createStreamsDashboard({
    db: store.db,
    client: {} as ModerationClient,
    serviceBaseUrl: "http://127.0.0.1:9",
    receiverOrigin: "http://127.0.0.1:9",
    publishEvent: (e) => publish.event?.(e),
    publishSummary: (s) => publish.summary?.(s),
    signingSecret: null,
  });
  return {
    store,
    streams,
    addStream: async (requestId, o = {}) => {
      await store.db.insert(dashboardStreams).values({ requestId, kind: "video", url: `rtmp://x/${requestId}`, serviceBaseUrl: "http://127.0.0.1:9", receiverToken: hashToken(`token-${requestId}`), status: "running", startedAt: new Date(), detectStep: o.detectStep ?? null });
    },
    close: async () => {
      await store.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}
