import type { EventEmitter } from "node:events";
import type { Config } from "../config";
import type { Dispatcher } from "../callback/dispatcher";
import type { Capability, CapabilityView, DetectPool } from "../detect";
import type { AudioDetector } from "../detect/audio";
import type { Store } from "../store/db";
import type { MediaUrls } from "../service/media-urls";
import type { FileProgressEvent } from "../../lib/events";
import type { FileStages } from "./file-stages";

export interface EngineEvents {
  "file:progress": [FileProgressEvent];
  /** where a file's processing time went (bench and logs) */
  "file:stages": [FileStages];
}

/** What every task verb needs; built once by createEngine. */
export interface EngineContext {
  config: Config;
  store: Store;
  dispatcher: Dispatcher;
  detect: DetectPool;
  audio: AudioDetector;
  /** every contract type: frame detectors' rows for image groups, the audio detector's for audio groups */
  /** `counts: false` for strangers (GET /capabilities/v4): no gallery or bank sizes */
  capabilities: (o?: CapabilityView) => Capability[];
  media: MediaUrls;
  mediaRoot: string;
  events: EventEmitter<EngineEvents>;
  /** Origins of this server's own receivers: callbacks there pass the private-network guard. */
  ownOrigins: Set<string>;
  /** `scheme://host:port` of this server's own media ingest (e.g. the RTMP server). */
  ownMediaOrigins: Set<string>;
  log: (msg: string) => void;
}
