import type { Capability } from "@/components/hooks/queries/useCapabilitiesQuery";

export type CapabilityKind = "img" | "audio";

function normalise(group: string): string {
  return group.toLowerCase().replace(/[^a-z]/g, "");
}

/** Which form field a capability group feeds: "imgType"/"audioType" (and close spellings); business groups excluded. */
export function groupKind(group: string): CapabilityKind | null {
  const g = normalise(group);
  if (g.includes("business") || g.includes("stream")) return null;
  if (g.startsWith("img") || g.startsWith("image") || g.startsWith("frame")) return "img";
  if (g.startsWith("audio")) return "audio";
  return null;
}

export interface SupportState {
  /** undefined while capabilities are unknown (loading, failed, or no group recognised) */
  supported: boolean | undefined;
  reason?: string;
  engine?: string;
}

/** Support of `type` among the capabilities of one group; an empty group means "unknown", never "unsupported". */
function supportIn(ofGroup: Capability[], type: string): SupportState {
  if (ofGroup.length === 0) return { supported: undefined };
  const cap = ofGroup.find((c) => c.type.toUpperCase() === type.toUpperCase());
  if (cap === undefined) return { supported: false, reason: "no detector listed for this type" };
  return { supported: cap.supported, reason: cap.note ?? (cap.supported ? undefined : "no detector available"), engine: cap.engine };
}

/** Support of one type for the form; unknown capability data never blocks a submission. */
export function supportOf(caps: Capability[] | undefined, kind: CapabilityKind, type: string): SupportState {
  if (caps === undefined) return { supported: undefined };
  return supportIn(caps.filter((c) => groupKind(c.group) === kind), type);
}

/** Which capability list a type checklist consults: frames, file/video-stream audio, or audio-stream `type`. */
export type TypeGroup = CapabilityKind | "audiostream";

/** Support of one checklist type; NONE is a switch, not a detector, and audio-stream types have their own group. */
export function typeSupport(caps: Capability[] | undefined, group: TypeGroup, type: string): SupportState {
  if (type === "NONE") return { supported: true };
  if (group !== "audiostream") return supportOf(caps, group, type);
  if (caps === undefined) return { supported: undefined };
  return supportIn(caps.filter((c) => c.group.toLowerCase() === "audiostreamtype"), type);
}
