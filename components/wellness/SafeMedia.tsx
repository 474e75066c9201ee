"use client";

import { useEffect, useRef, useState, type ReactNode } from "react";
import { useMySettings } from "@/components/settings/useMySettings";

/**
 * Reviewer wellness (issue 26.4): frames, thumbnails, previews and clips inside are blurred and greyscale while the
 * user's `wellness.blur` is on, until revealed by hover, keyboard focus, a press (touch: the first tap reveals and
 * does not follow a link) or the `revealed` prop (the Review page's `v` key). `onReveal` runs each time the media is
 * shown plainly (the exposure count). The filter sits on the media elements (app/globals.css `.safe-media`).
 */
export default function SafeMedia({ children, revealed = false, onReveal, className = "block", label = "media", focusable = true, hint = true }: { children: ReactNode; revealed?: boolean; onReveal?: () => void; className?: string; label?: string; /** false inside a button or link (it takes the focus itself) */ focusable?: boolean; /** the "blurred" note on the picture (off for small tiles with their own captions) */ hint?: boolean }) {
  const { blur } = useMySettings().wellness;
  const [tapped, setTapped] = useState(false);
  const swallowClick = useRef(false);
  const shown = !blur || revealed || tapped;
  const reveal = useRef(onReveal);
  useEffect(() => {
    reveal.current = onReveal;
  });
  useEffect(() => {
    if (shown) reveal.current?.();
  }, [shown]);
  return (
    <span
      data-testid="safe-media"
      data-blurred={blur}
      data-revealed={shown}
      tabIndex={blur && focusable ? 0 : undefined}
      role={blur && !shown ? "group" : undefined}
      aria-label={blur && !shown ? `${label}, blurred: hover, focus or press to reveal` : undefined}
      onPointerEnter={(e) => e.pointerType === "mouse" && blur && reveal.current?.()}
      onFocus={() => blur && reveal.current?.()}
      onPointerDown={(e) => {
        if (!blur || shown || e.pointerType === "mouse") return;
        setTapped(true);
        swallowClick.current = true;
      }}
      onClickCapture={(e) => {
        if (!swallowClick.current) return;
        swallowClick.current = false;
        e.preventDefault();
        e.stopPropagation();
      }}
      className={`safe-media relative overflow-hidden ${className}`}
    >
      {children}
      {hint && blur && !shown && (
        <span aria-hidden className="safe-media-hint pointer-events-none absolute bottom-1 left-1 max-w-[calc(100%-0.5rem)] truncate whitespace-nowrap rounded bg-black/70 px-1 text-[9px] font-medium text-zinc-300">
          blurred · hover to reveal
        </span>
      )}
    </span>
  );
}

/** An incident or clip's audio: starts muted while the user's `wellness.muteAudio` is on (unmute in the controls). */
export function SafeAudio({ src, className, testId, preload }: { src: string; className?: string; testId?: string; preload?: "none" | "metadata" | "auto" }) {
  const { muteAudio } = useMySettings().wellness;
  const ref = useRef<HTMLAudioElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.muted = muteAudio;
  }, [muteAudio, src]);
  return <audio ref={ref} data-testid={testId} data-muted-default={muteAudio} controls preload={preload} muted={muteAudio} src={src} className={className} />;
}
