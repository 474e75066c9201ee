// What a running engine offers the server around it (server/app.ts) and the v4 routes (server/request/service-routes.ts).
import type http from "node:http";
import type { Lists } from "./dashboard/lists";
import type { AccessKeys } from "./service/access-keys";
import type { EngineContext } from "./task/context";
import type { FileRunner } from "./task/file-runner";
import type { StreamRunner } from "./task/stream-runner";

export interface Engine {
  ctx: EngineContext;
  files: FileRunner;
  streams: StreamRunner;
  /** operator-managed reference lists (face gallery, image hash bank, audio references) */
  lists: Lists;
  accessKeys: AccessKeys;
  /** The accepted keys; the first one is what the embedded dashboard uses. */
  keys: string[];
  generatedKey: boolean;
  /** Secret the engine signs the embedded dashboard's callbacks with (its receivers always verify). */
  dashboardSigningSecret: string;
  /** One v4 call by the embedded dashboard, in process, as its own principal (server/service/principals.ts). */
  call(path: string, body: unknown, baseUrl: string): Promise<object>;
  /** Serves the six v4 endpoints, /openapi.json, /capabilities and /media; false for other paths. */
  handle(req: http.IncomingMessage, res: http.ServerResponse): boolean;
  addOwnOrigin(origin: string): void;
  /** `scheme://host:port` of this server's own media ingest (RTMP, HTTP-FLV): pullable without ALLOW_PRIVATE_NETWORKS. */
  addOwnMediaOrigin(origin: string): void;
  start(): Promise<void>;
  stop(): Promise<void>;
}
