import { frameOcr, frameQr } from "@/components/files/result/frame-info";
import type { FrameDetail } from "@/components/files/result/types";

/** A frame card's evidence in short: every decoded QR payload and the OCR text, two lines at most. */
export default function FrameEvidence({ frame }: { frame: FrameDetail }) {
  const ocr = frameOcr(frame);
  return (
    <>
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
