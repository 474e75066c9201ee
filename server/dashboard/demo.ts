import { nmsContext } from "../demo/nms";
import { RTMP_APP, type RtmpServer } from "../demo/rtmp-server";
import { sampleFontNote, startSampleSource, type SampleSource } from "../demo/sample-source";
import type { StartAnswer } from "./stream-row";

export interface DemoDeps {
  rtmp: RtmpServer | null;
  /** host name users' encoders reach this machine by (for the ingest URL shown in the dashboard) */
  publicHost: string | null;
  supportedImgTypes: () => string[];
  startStream: (input: Parameters<ReturnType<typeof import("./streams").createStreamsDashboard>["start"]>[0]) => Promise<StartAnswer>;
  log: (m: string) => void;
  /** The sample publisher stops once nothing has pulled it for this long (default SAMPLE_IDLE_STOP_MS). */
  sampleIdleStopMs?: number;
}

const SAMPLE_KEY = "sample";

/** Players (RTMP or HTTP-FLV: moderation pulls, a browser preview) of /live/<key> on the ingest right now. */
function pullers(key: string): number {
  const broadcast = nmsContext.broadcasts.get(`/${RTMP_APP}/${key}`) as { subscribers?: Map<string, unknown> } | undefined;
  return broadcast?.subscribers?.size ?? 0;
}

/**
 * First-run demo: a generated live video published to the app's own RTMP ingest, then moderated. The
 * publisher runs only while something pulls it: once no task (nor anyone else) has pulled it for a while it
 * stops, and the next start of the sample stream starts a fresh one.
 */
export function createDemo(d: DemoDeps) {
  let sample: SampleSource | null = null;
  let starting: Promise<SampleSource> | null = null;
  return {
    /** `host`: the name the browser reached us by, used when no PUBLIC_BASE_URL says otherwise. */
    info: (host?: string) => ({
      rtmpIngestUrl: d.rtmp ? `rtmp://${d.publicHost ?? host ?? "localhost"}:${d.rtmp.rtmpPort}/live/<stream-key>` : null,
      // WHIP (OBS 30+ "WHIP" service, browsers) on the ingest's HTTP port; the stream is then rtmp…/live/<stream-key>
      whipIngestUrl: d.rtmp?.whip ? `http://${d.publicHost ?? host ?? "localhost"}:${d.rtmp.httpPort}/whip/<stream-key>` : null,
      // the same publish played back over WHEP (server/demo/whep-play.ts): pulled as a WEBRTC stream
      whepPlayUrl: d.rtmp?.whip ? `http://${d.publicHost ?? host ?? "localhost"}:${d.rtmp.httpPort}/whep/<stream-key>` : null,
      sampleRunning: Boolean(sample?.running),
      fontNote: sampleFontNote(),
    }),

    async start(): Promise<StartAnswer> {
      if (!d.rtmp) return { ok: false, error: "the RTMP ingest is disabled (RTMP_PORT=0)" };
      const rtmp = d.rtmp;
      if (!sample?.running) {
        starting ??= (async () => {
          await sample?.stop(); // one that stopped itself (idle) or died: let it release the key first
          return startSampleSource({ rtmpUrl: rtmp.rtmpUrl(SAMPLE_KEY), log: d.log, inUse: () => pullers(SAMPLE_KEY) > 0, idleStopMs: d.sampleIdleStopMs });
        })().finally(() => (starting = null));
        sample = await starting;
      }
      const answer = await d.startStream({
        kind: "video",
        url: rtmp.rtmpUrl(SAMPLE_KEY),
        title: "Sample stream (built-in demo)",
        detectFrequency: 2,
        imgTypes: d.supportedImgTypes(),
        audioTypes: ["POLITY"],
        returnAllImg: true,
        returnAllText: true,
        returnFinishInfo: true,
      });
      // already moderated: show that task
      if (!answer.ok && answer.dupRequestId) return { ok: true, requestId: answer.dupRequestId };
      return answer;
    },

    async stop(): Promise<void> {
      await sample?.stop();
      sample = null;
    },
  };
}
