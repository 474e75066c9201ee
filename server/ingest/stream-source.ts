import type { EgressPolicy } from "../net/egress-proxy";
import { startLivePull, type LivePull, type LivePullOptions } from "./live";
import { openWhepPull } from "./webrtc/whep-source";
import type { WebrtcNetwork } from "./webrtc/network";

/** Where a live task's media comes from. NORMAL URLs are pulled with ffmpeg; RTC providers need a connector. */
export interface StreamSource {
  readonly description: string;
  open(o: Omit<LivePullOptions, "url" | "egress">): LivePull;
}

/** No connector for this RTC provider is installed: its SDK cannot run here. */
export class MissingConnectorError extends Error {
  constructor(readonly streamType: string) {
    super(`streamType ${streamType} needs the ${streamType} RTC connector, which is not installed in this service; use streamType NORMAL with an rtmp/http-flv/hls URL`);
  }
}

export type ConnectorFactory = (data: Record<string, unknown>) => StreamSource;

/** RTC connectors by streamType. Empty: no provider SDK can run here (see docs/live-streams.md). */
export const RTC_CONNECTORS: Partial<Record<string, ConnectorFactory>> = {};

/**
 * `egress`: where the pull may connect (every run re-checks and pins); null only to validate `data`.
 * `network`: STUN/TURN settings of WebRTC pulls (WEBRTC_*, webrtc/network.ts).
 */
export function streamSourceFor(data: Record<string, unknown>, egress: EgressPolicy | null, network?: WebrtcNetwork): StreamSource {
  const type = String(data.streamType ?? "NORMAL");
  if (type === "NORMAL") {
    const url = String(data.url);
    return {
      description: url,
      open: (o) => {
        if (!egress) throw new Error("a NORMAL stream source needs an egress policy to pull");
        return startLivePull({ ...o, url, egress });
      },
    };
  }
  if (type === "WEBRTC") {
    // a WHEP endpoint (server/ingest/webrtc): pulled over WebRTC under the same egress rules
    const url = String(data.url);
    // data.headers: the endpoint's bearer, as the task's secrets hold it (server/task/source-secrets.ts)
    const headers = (data.headers ?? {}) as Record<string, string>;
    return {
      description: url,
      open: (o) => {
        if (!egress) throw new Error("a WEBRTC stream source needs an egress policy to pull");
        return openWhepPull(url, egress, o, { headers, network });
      },
    };
  }
  const connector = RTC_CONNECTORS[type];
  if (!connector) throw new MissingConnectorError(type);
  return connector(data);
}
