// The review queue's shortcut line and bulk actions, by what the role may do: a role never sees a key the server refuses.

export interface TriageHint {
  keys: string[];
  label: string;
}

/** j/k, v and Enter for everyone; c/x/e and a (assign) only with review:record. */
export function triageHints(canDecide: boolean): TriageHint[] {
  return [
    { keys: ["j", "k"], label: "next/previous" },
    ...(canDecide
      ? [
          { keys: ["c"], label: "confirm" },
          { keys: ["x"], label: "clear" },
          { keys: ["e"], label: "escalate" },
          { keys: ["a"], label: "assign to me" },
        ]
      : []),
    { keys: ["v"], label: "reveal media" },
    { keys: ["Enter"], label: "open the source" },
  ];
}

/** Keys the page binds: deciding keys only for a role that may decide. */
export function triageKeyMap<T>(canDecide: boolean, all: Record<"j" | "k" | "c" | "x" | "e" | "a" | "v" | "Enter", T>): Record<string, T> {
  const { c, x, e, a, ...rest } = all;
  return canDecide ? { ...rest, c, x, e, a } : rest;
}
