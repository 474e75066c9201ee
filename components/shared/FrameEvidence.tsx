import { frameOcr, frameQr } from "@/components/files/result/frame-info";
import type { FrameDetail } from "@/components/files/result/types";

/** A frame card's evidence in short: QR payloads, list matches (gallery faces, hash bank) and the OCR text. */
export default function FrameEvidence({ frame }: { frame: FrameDetail }) {
  const ocr = frameOcr(frame);
  const details = [frame.riskDetail, ...(frame.allLabels ?? []).map((l) => l.riskDetail)];
  const hash = details.find((d) => d?.hashMatch)?.hashMatch;
  const named = [...new Set(details.flatMap((d) => d?.faces ?? []).map((f) => f.name).filter((n): n is string => Boolean(n)))];
  return (
    <>
      {hash && (
        <div data-testid="hash-match" className="truncate text-[11px] text-risk-reject" title={`hash bank list ${hash.list}, distance ${hash.distance}/64`}>
          Image bank: {hash.entry} ({hash.list}, distance {hash.distance})
        </div>
      )}
      {named.length > 0 && (
        <div data-testid="face-match" className="truncate text-[11px] text-risk-review">Face gallery: {named.join(", ")}</div>
      )}
      {frameQr(frame).map((q) => (
        <div key={q} data-testid="qr-content" className="truncate font-mono text-[11px] text-sky-300" title={q}>QR: {q}</div>
      ))}
      {ocr && (
        <div data-testid="ocr-text" className="line-clamp-2 text-[11px] text-zinc-300" title={ocr.text}>
          <span className="text-zinc-500">OCR: </span>{ocr.text}
        </div>
      )}
    </>
  );
}
