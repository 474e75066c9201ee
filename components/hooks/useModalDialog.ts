"use client";

import { useEffect, useRef } from "react";

/** Keeps a <dialog> shown as a modal exactly while `open` is true; attach the returned ref to it. */
export function useModalDialog(open: boolean) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return ref;
}
