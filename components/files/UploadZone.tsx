"use client";

import Link from "next/link";
import { useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import ProgressBar from "@/components/ui/ProgressBar";
import { uploadWithProgress } from "./upload-xhr";

interface Item {
  key: string;
  file: File;
  sent: number;
  state: "uploading" | "done" | "failed";
  error?: string;
  btId?: string;
}

const mb = (n: number) => `${(n / 1048576).toFixed(n < 10 * 1048576 ? 1 : 0)} MB`;

/**
 * Upload files from this computer (drop or pick, several at once): each is sent with the form's settings and shows
 * its own progress; a failed one (a dropped connection, a refusal) says why and can be retried.
 */
export default function UploadZone({ settings, maxMb }: { settings: () => { input?: Record<string, unknown>; error?: string }; maxMb: number | null }) {
  const qc = useQueryClient();
  const [items, setItems] = useState<Item[]>([]);
  const [over, setOver] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const picker = useRef<HTMLInputElement>(null);
  const patch = (key: string, p: Partial<Item>) => setItems((xs) => xs.map((x) => (x.key === key ? { ...x, ...p } : x)));

  function send(item: Item) {
    const s = settings();
    if (!s.input) {
      patch(item.key, { state: "failed", error: s.error ?? "check the settings above" });
      return;
    }
    if (maxMb !== null && item.file.size > maxMb * 1048576) {
      patch(item.key, { state: "failed", error: `larger than the ${maxMb} MB upload limit (UPLOAD_MAX_MB)` });
      return;
    }
    patch(item.key, { state: "uploading", sent: 0, error: undefined });
    const { url: _url, ...input } = s.input;
    uploadWithProgress(item.file, input, (sent) => patch(item.key, { sent }))
      .then((ok) => {
        patch(item.key, { state: "done", btId: ok.btId, sent: item.file.size });
        void qc.invalidateQueries({ queryKey: ["files"] });
      })
      .catch((err: Error) => patch(item.key, { state: "failed", error: err.message }));
  }

  function add(files: FileList | null) {
    if (!files?.length) return;
    setNote(null);
    const added = [...files].map((file) => ({ key: `${file.name}-${file.size}-${Math.random().toString(36).slice(2)}`, file, sent: 0, state: "uploading" as const }));
    setItems((xs) => [...added, ...xs]);
    added.forEach(send);
  }

  return (
    <section aria-label="Upload files" className="border-t border-surface-line p-3">
      <div
        data-testid="upload-zone"
        onDragOver={(e) => (e.preventDefault(), setOver(true))}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => (e.preventDefault(), setOver(false), add(e.dataTransfer.files))}
        className={`flex flex-wrap items-center gap-3 rounded border border-dashed px-3 py-4 text-sm ${over ? "border-sky-400 bg-sky-500/10" : "border-surface-line"}`}
      >
        <span className="text-zinc-300">Drop video files here, or</span>
        <button type="button" className="rounded border border-surface-line px-3 py-1 text-zinc-100 hover:border-sky-500" onClick={() => picker.current?.click()}>
          Choose files…
        </button>
        <input ref={picker} type="file" multiple accept="video/*,audio/*,.mp4,.mov,.mkv,.webm,.flv,.ts,.m4a,.mp3,.wav" className="sr-only" aria-label="Choose files to upload" data-testid="upload-input" onChange={(e) => (add(e.target.files), (e.target.value = ""))} />
        <span className="text-xs text-zinc-500">Uses the settings above (capture, types, callback).{maxMb !== null ? ` Up to ${maxMb} MB each.` : ""}</span>
      </div>
      {note && <p className="mt-2 text-xs text-amber-300">{note}</p>}
      {items.length > 0 && (
        <ul className="mt-2 space-y-2" data-testid="upload-list">
          {items.map((it) => (
            <li key={it.key} className="grid grid-cols-1 gap-1 text-xs sm:grid-cols-[minmax(0,14rem)_1fr_auto] sm:items-center sm:gap-3" data-testid="upload-item" data-state={it.state}>
              <span className="truncate text-zinc-200" title={it.file.name}>{it.file.name} <span className="text-zinc-500">· {mb(it.file.size)}</span></span>
              {it.state === "uploading" ? (
                <ProgressBar done={it.sent} total={it.file.size} label={`Uploading ${it.file.name}`} />
              ) : it.state === "done" ? (
                <span className="text-emerald-300">Uploaded and submitted · <Link className="underline" href={`/files/${encodeURIComponent(it.btId!)}`}>{it.btId}</Link></span>
              ) : (
                <span role="alert" className="text-red-300">{it.error}</span>
              )}
              {it.state === "failed" ? (
                <button type="button" className="justify-self-start rounded border border-surface-line px-2 py-0.5 text-zinc-200 hover:border-sky-500" onClick={() => send(it)}>Retry</button>
              ) : (
                <span className="text-zinc-500">{it.state === "uploading" ? `${Math.round((it.sent / Math.max(1, it.file.size)) * 100)} %` : ""}</span>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
