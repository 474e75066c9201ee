// Trickle ICE for WHIP sessions (RFC 9725 §4.3, RFC 8840 SDP fragments): a publisher that sent its offer before
// gathering finished PATCHes its further candidates as `application/trickle-ice-sdpfrag`. werift adds them to the
// running ICE agent. An ICE restart (If-Match: *, new ufrag/pwd) is ice-restart.ts; new credentials without it are
// refused (422).
import { isIP } from "node:net";
import type { RTCPeerConnection } from "werift";

export const TRICKLE_TYPE = "application/trickle-ice-sdpfrag";
/** Remote candidates one session takes by PATCH (a browser gathers a handful; more is abuse). */
export const MAX_TRICKLED = 64;

export interface SdpFrag {
  ufrag?: string;
  pwd?: string;
  /** `candidate:…` attribute values, with the mid of the m= section they were listed under (if any). */
  candidates: Array<{ candidate: string; mid?: string }>;
  end: boolean;
}

/** Reads an RFC 8840 SDP fragment: session- or media-level ice-ufrag/ice-pwd, a=mid, a=candidate, a=end-of-candidates. */
export function parseSdpFrag(text: string): SdpFrag {
  const out: SdpFrag = { candidates: [], end: false };
  let mid: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith("m=")) mid = undefined;
    else if (line.startsWith("a=mid:")) mid = line.slice(6);
    else if (line.startsWith("a=ice-ufrag:")) out.ufrag = line.slice(12);
    else if (line.startsWith("a=ice-pwd:")) out.pwd = line.slice(10);
    else if (line.startsWith("a=candidate:")) out.candidates.push({ candidate: line.slice(2), mid });
    else if (line === "a=end-of-candidates") out.end = true;
  }
  return out;
}

/** The remote ufrag the session was negotiated with (the offer's first). */
export function remoteUfrag(pc: RTCPeerConnection): string | undefined {
  return /^a=ice-ufrag:(\S+)/m.exec(pc.remoteDescription?.sdp ?? "")?.[1];
}

/** Whether a `candidate:` value's connection address (field 5) is an IP literal; names (mDNS `.local`) are not. */
export const isIpCandidate = (c: string): boolean => isIP(c.split(/\s+/)[4] ?? "") !== 0;

export type TrickleResult =
  | { ok: true; added: number; skipped: number }
  | { ok: false; status: 400 | 422 | 429; message: string };

/**
 * Applies one PATCH fragment to `pc`. `already`: candidates this session took before (for MAX_TRICKLED).
 * A candidate whose address is not an IP literal (mDNS) is skipped, not an error: the other candidates still count.
 */
export async function applyTrickle(pc: RTCPeerConnection, frag: SdpFrag, already: number): Promise<TrickleResult> {
  const current = remoteUfrag(pc);
  if (frag.ufrag !== undefined && frag.ufrag !== current) {
    return { ok: false, status: 422, message: "new ICE credentials restart ICE: send them with If-Match: * (RFC 9725 §4.4); trickled candidates carry the session's current ice-ufrag" };
  }
  if (frag.candidates.length === 0 && !frag.end) return { ok: false, status: 400, message: "no a=candidate or a=end-of-candidates line in the fragment" };
  if (already + frag.candidates.length > MAX_TRICKLED) return { ok: false, status: 429, message: `at most ${MAX_TRICKLED} trickled candidates per session` };
  const mids = pc.getTransceivers().map((t) => t.mid).filter((m): m is string => typeof m === "string");
  let added = 0;
  let skipped = 0;
  for (const c of frag.candidates) {
    if (!isIpCandidate(c.candidate)) {
      skipped++;
      continue;
    }
    const sdpMid = c.mid !== undefined && mids.includes(c.mid) ? c.mid : mids[0];
    try {
      await pc.addIceCandidate({ candidate: c.candidate, sdpMid, usernameFragment: current });
      added++;
    } catch (err) {
      return { ok: false, status: 400, message: `candidate refused: ${(err as Error).message}` };
    }
  }
  if (frag.end) await pc.addIceCandidate({ candidate: "", sdpMid: mids[0], usernameFragment: current }).catch(() => undefined);
  return { ok: true, added, skipped };
}
