"use client";

import { useState } from "react";
import type { CaptureMode } from "@/lib/dashboard-api";
import { typeSupport } from "@/components/capabilities/match";
import { useConfigQuery } from "@/components/hooks/queries/useConfigQuery";
import { useCapabilitiesQuery } from "@/components/hooks/queries/useCapabilitiesQuery";
import { useSubmitFileMutation } from "@/components/hooks/queries/useSubmitFileMutation";
import { useCheckedSubmit } from "@/components/hooks/useCheckedSubmit";
import TypeChecklist from "@/components/shared/TypeChecklist";
import { useSupportedChoice } from "@/components/shared/type-choice";
import ErrorNote from "@/components/ui/ErrorNote";
import { EndUserField, Field, inputCls, SubmitArea, TitleField, Toggle } from "@/components/ui/form";
import UploadZone from "./UploadZone";
import {
  buildSubmitInput, CAPTURE_MODES, FORM_AUDIO_TYPES, FORM_IMG_TYPES, INITIAL_FORM, toggleAudioType, type FileFormState,
} from "./form-model";

function CaptureParams({ state, set }: { state: FileFormState; set: (patch: Partial<FileFormState>) => void }) {
  switch (state.captureMode) {
    case "detectFrequency":
      return (
        <Field label="Interval (s)" htmlFor="f-interval" className="w-28">
          <input id="f-interval" type="number" min={1} max={60} step={1} className={inputCls} value={state.interval} onChange={(e) => set({ interval: e.target.value })} />
        </Field>
      );
    case "checkFrameCount":
      return (
        <Field label="Frame count" htmlFor="f-count" className="w-28">
          <input id="f-count" type="number" min={1} step={1} className={inputCls} value={state.frameCount} onChange={(e) => set({ frameCount: e.target.value })} />
        </Field>
      );
    case "advancedFrequency":
      return (
        <>
          <Field label="Duration points (s)" htmlFor="f-points" className="w-44">
            <input id="f-points" className={inputCls} placeholder="300,600" value={state.durationPoints} onChange={(e) => set({ durationPoints: e.target.value })} />
          </Field>
          <Field label="Frequencies (s)" htmlFor="f-freqs" className="w-44">
            <input id="f-freqs" className={inputCls} placeholder="1,5,10" value={state.frequencies} onChange={(e) => set({ frequencies: e.target.value })} />
          </Field>
        </>
      );
    case "keyframes":
      return <p className="self-end pb-2 text-xs text-zinc-500">One frame per keyframe.</p>;
  }
}

export default function FileSubmitForm() {
  const capsQuery = useCapabilitiesQuery();
  const configQuery = useConfigQuery();
  const caps = capsQuery.data?.capabilities;
  const submit = useSubmitFileMutation();
  const [state, setState] = useState<FileFormState>(INITIAL_FORM);
  // Every supported image type is ticked until the reviewer touches the choice.
  const img = useSupportedChoice(caps, "img", FORM_IMG_TYPES);

  const set = (patch: Partial<FileFormState>) => setState((s) => ({ ...s, ...patch }));
  const { formError, onSubmit } = useCheckedSubmit(
    submit,
    () => {
      const audio = state.audioTypes.filter((t) => typeSupport(caps, "audio", t).supported !== false);
      return buildSubmitInput({ ...state, audioTypes: audio }, img.usable());
    },
    () => set({ url: "", title: "" }),
  );

  return (
    <form data-testid="file-form" data-capabilities={capsQuery.status} onSubmit={onSubmit} noValidate className="space-y-3 p-3">
      <div className="flex flex-wrap items-end gap-3">
        <Field label="Video URL" htmlFor="f-url" className="min-w-72 flex-[3]">
          <input id="f-url" type="url" required className={inputCls} placeholder="https://cdn.example/video.mp4" value={state.url} onChange={(e) => set({ url: e.target.value })} />
        </Field>
        <TitleField id="f-title" value={state.title} onChange={(title) => set({ title })} />
        <EndUserField id="f-token" value={state.tokenId} onChange={(tokenId) => set({ tokenId })} />
      </div>

      <div className="flex flex-wrap items-end gap-3">
        <Field label="Capture mode" htmlFor="f-mode" className="w-48">
          <select id="f-mode" className={inputCls} value={state.captureMode} onChange={(e) => set({ captureMode: e.target.value as CaptureMode })}>
            {CAPTURE_MODES.map((m) => (
              <option key={m.value} value={m.value}>{m.label}</option>
            ))}
          </select>
        </Field>
        <CaptureParams state={state} set={set} />
        <Field label="Callback URL" htmlFor="f-callback" className="min-w-64 flex-1">
          <input id="f-callback" type="url" className={inputCls} placeholder="blank = this dashboard's receiver" value={state.callback} onChange={(e) => set({ callback: e.target.value })} />
        </Field>
      </div>

      <div className="grid gap-3 lg:grid-cols-2">
        <TypeChecklist legend="Image types" name="imgType" group="img" types={FORM_IMG_TYPES} selected={img.selected} caps={caps} onToggle={img.toggle} />
        <TypeChecklist
          legend="Audio types"
          name="audioType"
          group="audio"
          types={FORM_AUDIO_TYPES}
          selected={state.audioTypes}
          caps={caps}
          onToggle={(t) => set({ audioTypes: toggleAudioType(state.audioTypes, t) })}
        />
      </div>

      <div className="flex flex-wrap items-center gap-x-5 gap-y-2 border-t border-surface-line pt-3">
        <Toggle label="Return all frames" checked={state.returnAllImg} onChange={(v) => set({ returnAllImg: v })} />
        <Toggle label="Return all audio" checked={state.returnAllAudio} onChange={(v) => set({ returnAllAudio: v })} />
        <SubmitArea
          pending={submit.isPending}
          label="Submit"
          pendingLabel="Submitting…"
          created={submit.isSuccess ? { testId: "submit-ok", verb: "Submitted", href: `/files/${encodeURIComponent(submit.data.btId)}`, id: submit.data.btId } : undefined}
        />
      </div>

      {formError !== null && <ErrorNote testId="form-error" error={formError} />}
      {submit.isError && <ErrorNote testId="form-error" prefix="Rejected:" error={submit.error} />}
      <UploadZone
        maxMb={configQuery.data?.uploadMaxMb ?? null}
        settings={() => {
          const audio = state.audioTypes.filter((t) => typeSupport(caps, "audio", t).supported !== false);
          const built = buildSubmitInput({ ...state, url: state.url.trim() || "upload" }, img.usable());
          return "input" in built ? { input: { ...built.input, audioTypes: audio.length ? audio : ["NONE"] } as Record<string, unknown> } : { error: built.error };
        }}
      />
    </form>
  );
}
