"use client";

import Link from "next/link";
import { useState, type FormEvent, type ReactNode } from "react";
import type { CaptureMode } from "@/lib/dashboard-api";
import { useCapabilitiesQuery } from "@/components/hooks/queries/useCapabilitiesQuery";
import { useSubmitFileMutation } from "@/components/hooks/queries/useSubmitFileMutation";
import { supportOf } from "@/components/capabilities/match";
import ErrorNote from "@/components/ui/ErrorNote";
import TypeChecklist from "./TypeChecklist";
import {
  buildSubmitInput, CAPTURE_MODES, FORM_AUDIO_TYPES, FORM_IMG_TYPES, INITIAL_FORM, toggleAudioType, type FileFormState,
} from "./form-model";

const inputCls =
  "w-full rounded border border-surface-line bg-surface-sunken px-2 py-1.5 text-sm text-zinc-100 placeholder:text-zinc-600 focus:border-sky-500 focus:outline-none";

function Field({ label, htmlFor, children, className = "" }: { label: string; htmlFor: string; children: ReactNode; className?: string }) {
  return (
    <div className={`min-w-0 ${className}`}>
      <label htmlFor={htmlFor} className="mb-1 block text-[11px] font-semibold uppercase tracking-wider text-zinc-400">
        {label}
      </label>
      {children}
    </div>
  );
}

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

function Toggle({ label, checked, onChange }: { label: string; checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <label className="flex cursor-pointer items-center gap-2 text-xs text-zinc-300">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} className="h-3.5 w-3.5 accent-sky-500" />
      {label}
    </label>
  );
}

export default function FileSubmitForm() {
  const capsQuery = useCapabilitiesQuery();
  const caps = capsQuery.data?.capabilities;
  const submit = useSubmitFileMutation();
  const [state, setState] = useState<FileFormState>(INITIAL_FORM);
  // null until the reviewer touches the image types: until then every supported type is ticked.
  const [imgChoice, setImgChoice] = useState<string[] | null>(null);
  const [formError, setFormError] = useState<string | null>(null);

  const set = (patch: Partial<FileFormState>) => setState((s) => ({ ...s, ...patch }));
  const defaultImg = FORM_IMG_TYPES.filter((t) => supportOf(caps, "img", t).supported === true);
  const imgSelected = imgChoice ?? defaultImg;
  const toggleImg = (type: string) =>
    setImgChoice((cur) => {
      const base = cur ?? defaultImg;
      return base.includes(type) ? base.filter((t) => t !== type) : [...base, type];
    });

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    submit.reset();
    const usable = imgSelected.filter((t) => supportOf(caps, "img", t).supported !== false);
    const audio = state.audioTypes.filter((t) => t === "NONE" || supportOf(caps, "audio", t).supported !== false);
    const built = buildSubmitInput({ ...state, audioTypes: audio }, usable);
    if (built.error !== undefined) {
      setFormError(built.error);
      return;
    }
    setFormError(null);
    submit.mutate(built.input, { onSuccess: () => set({ url: "", title: "" }) });
  }

  return (
    <form data-testid="file-form" data-capabilities={capsQuery.status} onSubmit={onSubmit} noValidate className="space-y-3 p-3">
      <div className="flex flex-wrap items-end gap-3">
        <Field label="Video URL" htmlFor="f-url" className="min-w-72 flex-[3]">
          <input id="f-url" type="url" required className={inputCls} placeholder="https://cdn.example/video.mp4" value={state.url} onChange={(e) => set({ url: e.target.value })} />
        </Field>
        <Field label="Title" htmlFor="f-title" className="min-w-40 flex-1">
          <input id="f-title" className={inputCls} maxLength={128} placeholder="optional" value={state.title} onChange={(e) => set({ title: e.target.value })} />
        </Field>
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
        <TypeChecklist legend="Image types" name="imgType" kind="img" types={FORM_IMG_TYPES} selected={imgSelected} caps={caps} onToggle={toggleImg} />
        <TypeChecklist
          legend="Audio types"
          name="audioType"
          kind="audio"
          types={FORM_AUDIO_TYPES}
          selected={state.audioTypes}
          caps={caps}
          onToggle={(t) => set({ audioTypes: toggleAudioType(state.audioTypes, t) })}
        />
      </div>

      <div className="flex flex-wrap items-center gap-x-5 gap-y-2 border-t border-surface-line pt-3">
        <Toggle label="Return all frames" checked={state.returnAllImg} onChange={(v) => set({ returnAllImg: v })} />
        <Toggle label="Return all audio" checked={state.returnAllAudio} onChange={(v) => set({ returnAllAudio: v })} />
        <div className="ml-auto flex items-center gap-3">
          {submit.isSuccess && (
            <span data-testid="submit-ok" className="text-xs text-zinc-400">
              Submitted{" "}
              <Link className="font-mono text-sky-300 hover:underline" href={`/files/${encodeURIComponent(submit.data.btId)}`}>
                {submit.data.btId}
              </Link>
            </span>
          )}
          <button
            type="submit"
            disabled={submit.isPending}
            className="rounded bg-sky-600 px-4 py-1.5 text-sm font-medium text-white hover:bg-sky-500 disabled:cursor-wait disabled:opacity-60"
          >
            {submit.isPending ? "Submitting…" : "Submit"}
          </button>
        </div>
      </div>

      {formError !== null && (
        <p role="alert" data-testid="form-error" className="rounded border border-risk-reject/40 bg-risk-reject/10 px-3 py-2 text-xs text-red-200">
          {formError}
        </p>
      )}
      {submit.isError && <ErrorNote testId="form-error" prefix="Rejected:" error={submit.error} />}
    </form>
  );
}
