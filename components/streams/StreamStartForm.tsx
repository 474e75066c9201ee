"use client";

import Link from "next/link";
import type { StreamKind } from "@/lib/dashboard-api";
import { useCapabilitiesQuery } from "@/components/hooks/queries/useCapabilitiesQuery";
import { DUPLICATE_STREAM, StreamStartError, useStartStreamMutation } from "@/components/hooks/queries/useStreamMutations";
import { useCheckedSubmit } from "@/components/hooks/useCheckedSubmit";
import { typeSupport } from "@/components/capabilities/match";
import TypeChecklist from "@/components/shared/TypeChecklist";
import { toggleIn, useSupportedChoice } from "@/components/shared/type-choice";
import ErrorNote from "@/components/ui/ErrorNote";
import { EndUserField, Field, inputCls, SubmitArea, TitleField, Toggle } from "@/components/ui/form";
import {
  audioEnabled, AUDIO_STREAM_TYPES, buildStreamInput, FORM_IMG_TYPES, STREAM_URL_HINT, toggleAudioType, VIDEO_AUDIO_TYPES, WHEP_URL_HINT,
  type StreamFormState, type StreamSource,
} from "./form-model";

const KINDS: ReadonlyArray<{ value: StreamKind; label: string }> = [
  { value: "video", label: "Video stream" },
  { value: "audio", label: "Audio stream" },
];

function KindSwitch({ kind, onChange }: { kind: StreamKind; onChange: (k: StreamKind) => void }) {
  return (
    <fieldset className="flex shrink-0 rounded border border-surface-line p-0.5" aria-label="Stream kind">
      {KINDS.map((k) => (
        <label key={k.value} className={`cursor-pointer rounded px-3 py-1 text-xs ${kind === k.value ? "bg-sky-600 text-white" : "text-zinc-400 hover:text-zinc-200"}`}>
          <input type="radio" name="kind" value={k.value} checked={kind === k.value} onChange={() => onChange(k.value)} className="sr-only" />
          {k.label}
        </label>
      ))}
    </fieldset>
  );
}

function StartFeedback({ mutation }: { mutation: ReturnType<typeof useStartStreamMutation> }) {
  const err = mutation.error;
  if (err instanceof StreamStartError && err.code === DUPLICATE_STREAM) {
    return (
      <p role="alert" data-testid="start-duplicate" className="rounded border border-risk-review/50 bg-risk-review/10 px-3 py-2 text-xs text-amber-100">
        This stream is already being moderated.{" "}
        {err.dupRequestId ? (
          <Link href={`/streams/${encodeURIComponent(err.dupRequestId)}`} className="font-mono text-sky-300 hover:underline">Open {err.dupRequestId} →</Link>
        ) : (
          <span className="text-zinc-400">({err.message})</span>
        )}
      </p>
    );
  }
  if (mutation.isError) return <ErrorNote testId="start-error" prefix="Rejected:" error={err} />;
  return null;
}

/** "Start a stream": kind, URL, capture and detection choices → POST /api/streams (laid out by its container: the New stream drawer). */
export default function StreamStartForm({ state, set }: { state: StreamFormState; set: (patch: Partial<StreamFormState>) => void }) {
  const capsQuery = useCapabilitiesQuery();
  const caps = capsQuery.data?.capabilities;
  const start = useStartStreamMutation();
  // the form is cleared on success: the started stream is named from what was sent
  const startedName = start.variables ? start.variables.title || start.variables.url : undefined;
  // Every supported image type is ticked until the moderator touches the choice.
  const img = useSupportedChoice(caps, "img", FORM_IMG_TYPES);
  const video = state.kind === "video";
  // audio types without a detector here are drawn unticked (TypeChecklist): never sent either
  const supportedAudio = (group: "audio" | "audiostream", types: string[]) => types.filter((t) => typeSupport(caps, group, t).supported !== false);
  const submitted = () => ({ ...state, videoAudioTypes: supportedAudio("audio", state.videoAudioTypes), audioStreamTypes: supportedAudio("audiostream", state.audioStreamTypes) });
  const { formError, onSubmit } = useCheckedSubmit(start, () => buildStreamInput(submitted(), img.usable()), () => set({ url: "", title: "" }));

  return (
    <form data-testid="stream-form" data-kind={state.kind} data-capabilities={capsQuery.status} onSubmit={onSubmit} noValidate className="space-y-3 p-3">
      <div className="flex flex-wrap items-end gap-3">
        <KindSwitch kind={state.kind} onChange={(kind) => set({ kind })} />
        <Field label="Source" htmlFor="s-source" className="w-40" hint="A media URL, or a WHEP endpoint pulled over WebRTC (lowest latency)">
          <select id="s-source" className={inputCls} value={state.source} onChange={(e) => set({ source: e.target.value as StreamSource })}>
            <option value="url">URL (RTMP, FLV, HLS)</option>
            <option value="whep">WebRTC (WHEP)</option>
          </select>
        </Field>
        <Field label={state.source === "whep" ? "WHEP endpoint" : "Stream URL"} htmlFor="s-url" className="min-w-72 flex-[3]" hint={state.source === "whep" ? WHEP_URL_HINT : STREAM_URL_HINT}>
          <input id="s-url" type="url" required className={inputCls} placeholder={state.source === "whep" ? "https://live.example/whep/stream" : "rtmp://live.example/app/stream"} value={state.url} onChange={(e) => set({ url: e.target.value })} />
        </Field>
        <TitleField id="s-title" value={state.title} onChange={(title) => set({ title })} />
        <EndUserField id="s-token" value={state.tokenId} onChange={(tokenId) => set({ tokenId })} />
      </div>

      {video ? (
        <div className="grid gap-3 @xl:grid-cols-[8rem_minmax(0,1fr)_minmax(0,1fr)]">
          <Field label="Capture every (s)" htmlFor="s-interval" hint="1–60 seconds between captured frames">
            <input id="s-interval" type="number" min={1} max={60} step={1} className={inputCls} value={state.interval} onChange={(e) => set({ interval: e.target.value })} />
          </Field>
          <TypeChecklist legend="Image types" name="imgType" group="img" types={FORM_IMG_TYPES} selected={img.selected} caps={caps} onToggle={img.toggle} />
          <TypeChecklist
            legend="Audio types"
            name="audioType"
            group="audio"
            types={VIDEO_AUDIO_TYPES}
            selected={state.videoAudioTypes}
            caps={caps}
            onToggle={(t) => set({ videoAudioTypes: toggleAudioType(state.videoAudioTypes, t) })}
          />
        </div>
      ) : (
        <TypeChecklist
          legend="Audio types"
          name="audioType"
          group="audiostream"
          types={AUDIO_STREAM_TYPES}
          selected={state.audioStreamTypes}
          caps={caps}
          onToggle={(t) => set({ audioStreamTypes: toggleIn(state.audioStreamTypes, t) })}
        />
      )}

      <div className="flex flex-wrap items-end gap-x-5 gap-y-2 border-t border-surface-line pt-3">
        {video && <Toggle label="Return all frames" hint="returnAllImg: every captured frame is called back, not only risky ones" checked={state.returnAllImg} onChange={(v) => set({ returnAllImg: v })} />}
        <Toggle label="Return all audio" hint="returnAllText: every 10 s segment is called back, those without speech included" checked={state.returnAllText} onChange={(v) => set({ returnAllText: v })} />
        {video && (
          <Field label="Frame step" htmlFor="s-step" className="w-24" hint="detectStep: check one of every N captured frames; the others are shown as not checked (blank = all)">
            <input id="s-step" type="number" min={1} step={1} className={inputCls} placeholder="all" value={state.detectStep} onChange={(e) => set({ detectStep: e.target.value })} />
          </Field>
        )}
        {audioEnabled(state) && (
          <Field label="Audio step" htmlFor="s-astep" className="w-24" hint="audioDetectStep 1–36: after each reviewed 10 s segment skip N (blank = all)">
            <input id="s-astep" type="number" min={1} max={36} step={1} className={inputCls} placeholder="all" value={state.audioDetectStep} onChange={(e) => set({ audioDetectStep: e.target.value })} />
          </Field>
        )}
        <SubmitArea
          pending={start.isPending}
          label="Start moderating"
          pendingLabel="Starting…"
          created={start.isSuccess ? { testId: "start-ok", verb: "Started", href: `/streams/${encodeURIComponent(start.data.requestId)}`, id: start.data.requestId, name: startedName, open: "Open its timeline" } : undefined}
        />
      </div>

      {formError !== null && <ErrorNote testId="start-error" error={formError} />}
      <StartFeedback mutation={start} />
    </form>
  );
}
