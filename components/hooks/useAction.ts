"use client";

import { useState } from "react";

/**
 * A button's or form's call to the API: `run(fn)` clears the last error, marks the row busy, and after `fn` succeeds
 * calls `onDone` (e.g. refetch); a failure is kept in `error` for an ErrorNote.
 */
export function useAction(onDone: () => void) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const run = async (fn: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
      onDone();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return { error, busy, run };
}
