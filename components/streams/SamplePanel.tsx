"use client";

import { useRouter } from "next/navigation";
import { useDemoQuery } from "@/components/hooks/queries/useDemoQuery";
import { useStartSampleMutation } from "@/components/hooks/queries/useStreamMutations";
import ErrorNote from "@/components/ui/ErrorNote";
import type { StreamSource } from "./form-model";

const EXAMPLE_KEY = "my-stream";

/** The ingest address with a concrete key in place of a `<stream-key>` placeholder, if it has one. */
export function exampleIngestUrl(ingestUrl: string): string {
  return ingestUrl.replace(/<[^>]*>/g, EXAMPLE_KEY);
}

/** A command that pushes a local file to the ingest as a live stream, looping. */
export function ffmpegPushCommand(publishUrl: string): string {
  return `ffmpeg -re -stream_loop -1 -i input.mp4 -c:v libx264 -preset veryfast -tune zerolatency -g 50 -c:a aac -ar 44100 -f flv ${publishUrl}`;
}

/** The sample stream button, and how to push one's own stream to this server's RTMP ingest. */
export default function SamplePanel({ onUseUrl }: { onUseUrl: (url: string, source?: StreamSource) => void }) {
  const router = useRouter();
  const demo = useDemoQuery();
  const sample = useStartSampleMutation();
  const ingest = demo.data?.rtmpIngestUrl ?? null;
  const example = ingest === null ? "" : exampleIngestUrl(ingest);
  const whip = demo.data?.whipIngestUrl ?? null;
  const whep = demo.data?.whepPlayUrl ? exampleIngestUrl(demo.data.whepPlayUrl) : null;

  return (
    <div className="space-y-2 border-t border-surface-line p-3 text-xs text-zinc-400">
      <div className="flex flex-wrap items-center gap-3">
        <button
          type="button"
          data-testid="sample-start"
          disabled={sample.isPending}
          onClick={() => sample.mutate(undefined, { onSuccess: (r) => router.push(`/streams/${encodeURIComponent(r.requestId)}`) })}
          className="rounded border border-sky-500/60 px-3 py-1 text-xs font-medium text-sky-200 hover:bg-sky-500/10 disabled:cursor-wait disabled:opacity-60"
        >
          {sample.isPending ? "Starting the sample…" : "Start the sample stream"}
        </button>
        <span>
          A built-in test stream with a QR code, an advert caption and a tone: watch the timeline fill in.
          {demo.data?.sampleRunning && " It is already on air; if it is being moderated, this opens that stream."}
        </span>
      </div>
      {demo.data?.fontNote && (
        <p data-testid="sample-font-note" className="rounded border border-risk-review/50 bg-risk-review/10 px-2 py-1 text-[11px] text-amber-100">
          {demo.data.fontNote}
        </p>
      )}
      {sample.isError && <ErrorNote testId="sample-error" prefix="Sample stream:" error={sample.error} />}
      {ingest !== null && (
        <div data-testid="ingest-info" className="space-y-1.5">
          <p>
            Or push your own stream with OBS or ffmpeg to{" "}
            <code className="break-all rounded bg-surface-sunken px-1 py-0.5 font-mono text-zinc-200">{ingest}</code>
            {example !== ingest && <> (any key you choose)</>}, then moderate that same address above. For example, push a
            file in a loop and{" "}
            <button type="button" onClick={() => onUseUrl(example)} className="text-sky-300 hover:underline">put {example} in the form</button>:
          </p>
          <pre className="overflow-x-auto rounded bg-surface-sunken px-2 py-1.5 font-mono text-[11px] text-zinc-300">{ffmpegPushCommand(example)}</pre>
        </div>
      )}
      {ingest !== null && whip && (
        <section data-testid="whip-info" aria-label="WebRTC (WHIP)" className="space-y-1.5">
          <h3 className="font-medium text-zinc-200">WebRTC (WHIP)</h3>
          <p>
            From OBS 30+ (Settings → Stream → Service <em>WHIP</em>), a browser or GStreamer, publish over WebRTC to{" "}
            <code className="break-all rounded bg-surface-sunken px-1 py-0.5 font-mono text-zinc-200">{exampleIngestUrl(whip)}</code>. Bearer Token:
            the server&apos;s <code className="font-mono">INGEST_PUBLISH_KEY</code> (ask your operator; not needed from a network in{" "}
            <code className="font-mono">INGEST_PUBLISH_ALLOW</code>). Then{" "}
            {whep ? (
              <>
                <button type="button" data-testid="whep-use" onClick={() => onUseUrl(whep, "whep")} className="text-sky-300 hover:underline">moderate it over WebRTC</button> (its WHEP
                playback {whep}: no transcode, the lowest latency), or{" "}
              </>
            ) : null}
            <button type="button" onClick={() => onUseUrl(example)} className="text-sky-300 hover:underline">moderate {example}</button>: a WHIP
            publish is also pulled like an RTMP one.
          </p>
        </section>
      )}
    </div>
  );
}
