"use client";

import { useState } from "react";
import type { Capability } from "@/components/hooks/queries/useCapabilitiesQuery";
import { typeSupport, type TypeGroup } from "@/components/capabilities/match";

/** A plain toggle in a list (no exclusive NONE). */
export function toggleIn(list: readonly string[], type: string): string[] {
  return list.includes(type) ? list.filter((t) => t !== type) : [...list, type];
}

/**
 * A choice of types that starts as "every supported type" until the user touches it, so it follows the
 * capabilities as they load; `usable()` drops types known to be unsupported before a submission.
 */
export function useSupportedChoice(caps: Capability[] | undefined, group: TypeGroup, types: readonly string[]) {
  const [choice, setChoice] = useState<string[] | null>(null);
  const defaults = types.filter((t) => typeSupport(caps, group, t).supported === true);
  const selected = choice ?? defaults;
  return {
    selected,
    toggle: (type: string) => setChoice((cur) => toggleIn(cur ?? defaults, type)),
    usable: () => selected.filter((t) => typeSupport(caps, group, t).supported !== false),
  };
}
