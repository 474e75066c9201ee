"use client";

import type { Capability } from "@/components/hooks/queries/useCapabilitiesQuery";
import { typeSupport, type TypeGroup } from "@/components/capabilities/match";

/** Short meaning of each detection type, shown in the checkbox tooltip. */
const TYPE_HINTS: Readonly<Record<string, string>> = {
  POLITY: "politics",
  EROTIC: "porn & sexy",
  VIOLENT: "violence & prohibited",
  QRCODE: "QR codes",
  ADVERT: "ads",
  IMGTEXTRISK: "text in image",
  BAN: "prohibited",
  DIRTY: "abuse",
  ADLAW: "advertising law",
  MOAN: "moaning",
  AUDIOPOLITICAL: "leader voiceprint",
  ANTHEN: "national anthem",
  BANEDAUDIO: "banned songs",
  NONE: "no audio detection",
  SING: "singing",
  MINOR: "minor voice",
  COPYRIGHTSONGS: "copyrighted songs",
  VOICE: "voice attributes",
};

interface Props {
  legend: string;
  name: string;
  group: TypeGroup;
  types: readonly string[];
  selected: readonly string[];
  caps: Capability[] | undefined;
  onToggle: (type: string) => void;
}

/**
 * Detection types as checkboxes, marked with what the service can actually run; a type without a detector here
 * is disabled (its results could only ever be "not checked"), the reason in the tooltip. Streams and files alike.
 */
export default function TypeChecklist({ legend, name, group, types, selected, caps, onToggle }: Props) {
  return (
    <fieldset className="min-w-0">
      <legend className="mb-1.5 text-[11px] font-semibold uppercase tracking-wider text-zinc-400">{legend}</legend>
      <div className="flex flex-wrap gap-1.5">
        {types.map((type) => {
          const support = typeSupport(caps, group, type);
          const missing = support.supported === false;
          const disabled = missing;
          const checked = selected.includes(type) && !disabled;
          const title = missing
            ? `Not supported: ${support.reason ?? "no detector"}`
            : [TYPE_HINTS[type], support.engine ? `engine: ${support.engine}` : null].filter(Boolean).join(" · ");
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
              {support.supported === true && type !== "NONE" && <span aria-hidden className="h-1.5 w-1.5 rounded-full bg-risk-pass" title="detector available" />}
              {missing && !disabled && <span aria-hidden className="h-1.5 w-1.5 rounded-full bg-zinc-500" title="no detector: segments come back PASS" />}
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
