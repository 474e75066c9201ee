"use client";

import type { Capability } from "@/components/hooks/queries/useCapabilitiesQuery";
import { supportOf, type CapabilityKind } from "@/components/capabilities/match";
import { TYPE_HINTS } from "./form-model";

interface Props {
  legend: string;
  name: string;
  kind: CapabilityKind;
  types: readonly string[];
  selected: readonly string[];
  caps: Capability[] | undefined;
  onToggle: (type: string) => void;
}

/** Detection types as checkboxes; a type the service cannot run is disabled, its reason in the tooltip. */
export default function TypeChecklist({ legend, name, kind, types, selected, caps, onToggle }: Props) {
  return (
    <fieldset className="min-w-0">
      <legend className="mb-1.5 text-[11px] font-semibold uppercase tracking-wider text-zinc-400">{legend}</legend>
      <div className="flex flex-wrap gap-1.5">
        {types.map((type) => {
          // NONE is a switch, not a detector: always available.
          const support = type === "NONE" ? { supported: true } : supportOf(caps, kind, type);
          const disabled = support.supported === false;
          const checked = selected.includes(type) && !disabled;
          const title = disabled
            ? `Not supported: ${support.reason ?? "no detector"}`
            : [TYPE_HINTS[type], "engine" in support && support.engine ? `engine: ${support.engine}` : null].filter(Boolean).join(" · ");
          return (
            <label
              key={type}
              title={title}
              className={`flex cursor-pointer select-none items-center gap-1.5 rounded border px-2 py-1 text-xs ${
                disabled
                  ? "cursor-not-allowed border-surface-line text-zinc-600 line-through decoration-zinc-600"
                  : checked
                    ? "border-sky-500/60 bg-sky-500/10 text-zinc-100"
                    : "border-surface-line text-zinc-300 hover:border-zinc-500"
              }`}
            >
              <input
                type="checkbox"
                name={name}
                value={type}
                checked={checked}
                disabled={disabled}
                title={title}
                onChange={() => onToggle(type)}
                className="h-3.5 w-3.5 accent-sky-500"
              />
              <span className="font-mono">{type}</span>
              {support.supported === true && type !== "NONE" && (
                <span aria-hidden className="h-1.5 w-1.5 rounded-full bg-risk-pass" title="detector available" />
              )}
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
