"use client";

import { useState } from "react";
import { filenameOf, preparingText } from "./download-progress";

/**
 * An export link that shows its progress: the zip is fetched by the page (same-origin, with the session) while the
 * button says "Preparing zip… N MB", then saved under the server's filename. Without script it is a plain download.
 */
export default function ZipDownload({ href, label, testId, className = "" }: { href: string; label: string; testId?: string; className?: string }) {
  const [bytes, setBytes] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const busy = bytes !== null;
  async function download(e: React.MouseEvent<HTMLAnchorElement>) {
    e.preventDefault();
    e.currentTarget.blur();
    if (busy) return;
    setError(null);
    setBytes(0);
    try {
      const res = await fetch(href, { credentials: "same-origin" });
      if (!res.ok || !res.body) throw new Error(`the server answered ${res.status}`);
      const reader = res.body.getReader();
      const chunks: Uint8Array<ArrayBuffer>[] = [];
      let got = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value as Uint8Array<ArrayBuffer>);
        got += value.byteLength;
        setBytes(got);
      }
      const url = URL.createObjectURL(new Blob(chunks, { type: res.headers.get("content-type") ?? "application/zip" }));
      const a = document.createElement("a");
      a.href = url;
      a.download = filenameOf(res.headers.get("content-disposition")) ?? "export.zip";
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (err) {
      setError(`Export failed: ${(err as Error).message}`);
    } finally {
      setBytes(null);
    }
  }
  return (
    <span className={`inline-flex items-center gap-2 ${className}`}>
      <a data-testid={testId} data-state={busy ? "preparing" : "idle"} aria-busy={busy} href={href} download onClick={(e) => void download(e)} className={`text-xs hover:underline ${busy ? "cursor-wait text-zinc-400" : "text-sky-300"}`}>
        {busy ? preparingText(bytes) : label}
      </a>
      {error && <span role="alert" className="text-xs text-red-300">{error}</span>}
    </span>
  );
}
