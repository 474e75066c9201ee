import type { ReactNode } from "react";
import type { Evidence as EvidenceShape } from "@/lib/incidents";

/** What made the peak a hit: QR contents, matched words (list, entry), OCR text, transcript, matched track or image, faces. */
export default function Evidence({ ev }: { ev: EvidenceShape }) {
  const rows: Array<[string, ReactNode, string]> = [];
  for (const q of ev.qr) rows.push(["QR code", <span className="break-all font-mono text-sky-300">{q}</span>, "evidence-qr"]);
  for (const w of ev.words) rows.push([`List ${w.list}`, <span><mark className="rounded bg-amber-400/20 px-0.5 text-amber-200">{w.word}</mark>{w.entry && w.entry !== w.word ? <span className="text-zinc-500"> (entry “{w.entry}”)</span> : null}</span>, "evidence-word"]);
  if (ev.ocrText) rows.push(["OCR text", <span className="whitespace-pre-wrap">{ev.ocrText}</span>, "evidence-ocr"]);
  if (ev.transcript) rows.push(["Transcript", <span className="whitespace-pre-wrap">{ev.transcript}</span>, "evidence-transcript"]);
  if (ev.track) rows.push(["Reference track", `${ev.track.entry} (${ev.track.list}${ev.track.offsetSec !== undefined ? `, at ${ev.track.offsetSec.toFixed(1)} s` : ""})`, "evidence-track"]);
  if (ev.hashMatch) rows.push(["Image bank", `${ev.hashMatch.entry} (${ev.hashMatch.list}, distance ${ev.hashMatch.distance})`, "evidence-hash"]);
  if (ev.faces.length) rows.push(["Face gallery", ev.faces.join(", "), "evidence-faces"]);
  if (rows.length === 0) return <p className="text-xs text-zinc-500">The detector reported no further detail for this hit.</p>;
  return (
    <dl className="space-y-1.5 text-xs" data-testid="incident-evidence">
      {rows.map(([k, v, id], n) => (
        <div key={n} data-testid={id}>
          <dt className="text-[10px] uppercase tracking-wider text-zinc-500">{k}</dt>
          <dd className="text-zinc-200">{v}</dd>
        </div>
      ))}
    </dl>
  );
}
