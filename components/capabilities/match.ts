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

/** Support of one type for the form; unknown capability data never blocks a submission. */
export function supportOf(caps: Capability[] | undefined, kind: CapabilityKind, type: string): SupportState {
  if (caps === undefined) return { supported: undefined };
  const ofKind = caps.filter((c) => groupKind(c.group) === kind);
  if (ofKind.length === 0) return { supported: undefined };
  const cap = ofKind.find((c) => c.type.toUpperCase() === type.toUpperCase());
  if (cap === undefined) return { supported: false, reason: "no detector listed for this type" };
  return { supported: cap.supported, reason: cap.note ?? (cap.supported ? undefined : "no detector available"), engine: cap.engine };
}
