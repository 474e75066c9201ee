"use client";

import { useState } from "react";
import { useModalDialog } from "@/components/hooks/useModalDialog";
import { useCloseStreamMutation } from "@/components/hooks/queries/useStreamMutations";
import ErrorNote from "@/components/ui/ErrorNote";
import { useCan } from "@/components/auth/UserContext";

/** "Close" with a confirmation dialog: stops the pull at once; the end marker follows live. */
export default function CloseStreamButton({ requestId, name, size = "sm" }: { requestId: string; name: string; size?: "sm" | "md" }) {
  const [open, setOpen] = useState(false);
  const ref = useModalDialog(open);
  const close = useCloseStreamMutation(requestId);
  const allowed = useCan("stream:close");

  const confirm = () => close.mutate(undefined, { onSuccess: () => setOpen(false) });
  const pad = size === "md" ? "px-3 py-1.5 text-sm" : "px-2.5 py-1 text-xs";
  // only supervisors may cut a stream (the server refuses others too)
  if (!allowed) return null;

  return (
    <>
      <button
        type="button"
        data-testid="close-stream"
        onClick={() => {
          close.reset();
          setOpen(true);
        }}
        className={`rounded border border-risk-reject/60 font-medium text-red-200 hover:bg-risk-reject/15 ${pad}`}
      >
        Close
      </button>
      <dialog
        ref={ref}
        data-testid="close-dialog"
        onClose={() => setOpen(false)}
        onClick={(e) => {
          if (e.target === e.currentTarget && !close.isPending) setOpen(false);
        }}
        className="m-auto w-[min(28rem,92vw)] rounded-lg border border-surface-line bg-surface-raised p-0 text-zinc-200"
      >
        {open && (
          <div className="space-y-3 p-4 text-sm">
            <h2 className="font-semibold text-zinc-100">Close this stream?</h2>
            <p className="text-xs text-zinc-400">
              Moderation of <span className="break-all text-zinc-200">{name}</span> stops now: no more frames or audio segments are
              captured. This cannot be undone; start it again to resume.
            </p>
            {close.isError && <ErrorNote prefix="Could not close:" error={close.error} />}
            <div className="flex justify-end gap-2">
              {/* Focus starts on the safe choice, so a stray Enter never closes a stream. */}
              <button type="button" autoFocus onClick={() => setOpen(false)} disabled={close.isPending} className="rounded border border-surface-line px-3 py-1 text-xs hover:border-zinc-500">
                Keep running
              </button>
              <button
                type="button"
                data-testid="confirm-close"
                onClick={confirm}
                disabled={close.isPending}
                className="rounded bg-red-600 px-3 py-1 text-xs font-medium text-white hover:bg-red-500 disabled:cursor-wait disabled:opacity-60"
              >
                {close.isPending ? "Closing…" : "Close stream"}
              </button>
            </div>
          </div>
        )}
      </dialog>
    </>
  );
}
