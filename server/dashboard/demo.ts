import type { RtmpServer } from "../demo/rtmp-server";
import { startSampleSource, type SampleSource } from "../demo/sample-source";
import type { StartAnswer } from "./streams";

export interface DemoDeps {
  rtmp: RtmpServer | null;
  /** host name users' encoders reach this machine by (for the ingest URL shown in the dashboard) */
  publicHost: string | null;
  supportedImgTypes: () => string[];
  startStream: (input: Parameters<ReturnType<typeof import("./streams").createStreamsDashboard>["start"]>[0]) => Promise<StartAnswer>;
  log: (m: string) => void;
}

const SAMPLE_KEY = "sample";

/** First-run demo: a generated live video published to the app's own RTMP ingest, then moderated. */
export function createDemo(d: DemoDeps) {
  let sample: SampleSource | null = null;
  let starting: Promise<SampleSource> | null = null;
  return {
    /** `host`: the name the browser reached us by, used when no PUBLIC_BASE_URL says otherwise. */
    info: (host?: string) => ({
      rtmpIngestUrl: d.rtmp ? `rtmp://${d.publicHost ?? host ?? "localhost"}:${d.rtmp.rtmpPort}/live/<stream-key>` : null,
      sampleRunning: Boolean(sample?.running),
    }),

    async start(): Promise<StartAnswer> {
      if (!d.rtmp) return { ok: false, error: "the RTMP ingest is disabled (RTMP_PORT=0)" };
      const rtmp = d.rtmp;
      if (!sample?.running) {
        starting ??= startSampleSource({ rtmpUrl: rtmp.rtmpUrl(SAMPLE_KEY), log: d.log }).finally(() => (starting = null));
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
