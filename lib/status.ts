/** The dashboard's Status page data (GET /api/status); shared by the server and the page. */

export type DiskCategory = "frames" | "audioClips" | "database" | "referenceLists" | "other";

export interface DiskUse {
  dataDir: string;
  /** bytes per category under DATA_DIR (database: the PGlite directory, or PostgreSQL's database size) */
  bytes: Record<DiskCategory, number>;
  totalBytes: number;
  /** the database lives outside DATA_DIR (PostgreSQL): its size is not part of the volume below */
  databaseExternal: boolean;
  /** the volume holding DATA_DIR */
  volume: { freeBytes: number; sizeBytes: number } | null;
  measuredAt: string;
}

export interface SweepReport {
  at: string;
  durationMs: number;
  tasks: number;
  dashboardRecords: number;
  mediaDirs: number;
  bytes: number;
  error?: string;
}

export interface RetentionStatus {
  retentionHours: number;
  sweepMinutes: number;
  lastSweep: SweepReport | null;
  nextSweepAt: string | null;
}

/** Embedded: this process's work. Scaled mode: the whole cluster's, read from the shared store. */
export interface QueueDepths {
  filesWaiting: number;
  filesProcessing: number;
  streamsRunning: number;
  callbacksPending: number;
}

/** A running stream whose detection fell behind: fewer frames checked in the last minute than it asked for. */
export interface StreamBehind {
  requestId: string;
  kind: "video" | "audio";
  title: string | null;
  url: string;
  framesLastMinute: number;
  notCheckedLastMinute: number;
  detectStep: number | null;
  lastResultAt: string | null;
}

export interface StatusReport {
  disk: DiskUse;
  retention: RetentionStatus;
  /** null when the dashboard drives a remote service (no engine runs here) */
  queues: QueueDepths | null;
  /** running streams with detection behind (the dashboard's own streams, from the results it received) */
  streamsBehind: StreamBehind[];
  /** scaled mode: the workers and every running stream with its holder, from the shared store; null otherwise */
  cluster?: ClusterStatus | null;
}

/** Scaled mode: a process that takes live streams, as its heartbeat declares it (server/scale). */
export interface ClusterWorker {
  name: string;
  /** streams it takes (0: no limit) */
  capacity: number;
  held: number;
  /** streams whose detection fell behind on it (it claims no new one) */
  behind: number;
  heartbeatAgeSec: number;
  /** heartbeat younger than a lease: counted as room */
  alive: boolean;
}

/** Scaled mode: a running live stream of any principal, and which worker holds it. */
export interface ClusterStream {
  requestId: string;
  kind: "video" | "audio";
  /** the dashboard's title for it (null for a public API task) */
  title: string | null;
  holder: string | null;
  state: "held" | "waiting for a worker" | "handing over" | "closing";
  /** seconds the holder's lease still runs (renewed every second while it pulls) */
  leaseLeftSec: number | null;
  /** worker it is being handed to (graceful handover) */
  handoverTo: string | null;
  startedAt: string;
}

export interface ClusterStatus {
  leaseSec: number;
  workers: ClusterWorker[];
  streams: ClusterStream[];
}
