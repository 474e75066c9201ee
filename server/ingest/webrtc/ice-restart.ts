// ICE restarts of a WHIP session (RFC 9725 §4.4): a publisher whose network changed (Wi-Fi → cellular, a new NAT
// binding) PATCHes `If-Match: *` with a fragment naming new ICE credentials and, optionally, its new candidates. The
// session keeps its peer, DTLS and RTP: werift restarts ICE when a remote offer brings new credentials, so the
// session's own offer is replayed with the fragment's credentials and candidates, answered, and the answer's new
// credentials and candidates go back as a fragment (200, with a new ETag).
import type { RTCPeerConnection } from "werift";
import { gathered } from "./peer";
import { isIpCandidate, MAX_TRICKLED, remoteUfrag, type SdpFrag } from "./trickle";

/** ICE restarts one session may ask for (each regathers our candidates). */
export const MAX_ICE_RESTARTS = 20;

export type IceRestartResult = { ok: true; frag: string; candidates: number } | { ok: false; status: 400 | 429; message: string };

/**
 * The session's remote offer with the fragment's credentials in place of the old ones, the old candidates dropped
 * and the fragment's put under the m= section of their mid (the first one when they name none: BUNDLE), and the
 * o= line's version raised (a new offer of the same session).
 */
export function restartOffer(sdp: string, frag: SdpFrag & { ufrag: string; pwd: string }): string {
  const lines = sdp.split(/\r?\n/).filter((l) => l !== "");
  const out: string[] = [];
  const sections: Array<{ mid?: string; at: number }> = [];
  for (const line of lines) {
    if (line.startsWith("a=candidate:") || line === "a=end-of-candidates") continue;
    if (line.startsWith("a=ice-ufrag:")) out.push(`a=ice-ufrag:${frag.ufrag}`);
    else if (line.startsWith("a=ice-pwd:")) out.push(`a=ice-pwd:${frag.pwd}`);
    else if (line.startsWith("o=")) out.push(line.replace(/^(o=\S+ \S+ )(\d+)/, (_m, head: string, v: string) => `${head}${BigInt(v) + 1n}`));
    else out.push(line);
    if (line.startsWith("m=")) sections.push({ at: out.length });
    else if (line.startsWith("a=mid:") && sections.length) sections[sections.length - 1].mid = line.slice(6);
  }
  if (sections.length === 0) return out.join("\r\n") + "\r\n";
  const sectionOf = (mid: string | undefined) => Math.max(0, sections.findIndex((s) => mid !== undefined && s.mid === mid));
  // candidate lines go at the end of their section: insert from the last section backwards so indexes stay valid
  for (let i = sections.length - 1; i >= 0; i--) {
    const mine = frag.candidates.filter((c) => sectionOf(c.mid) === i).map((c) => `a=${c.candidate}`);
    if (frag.end && (i === 0 || mine.length)) mine.push("a=end-of-candidates");
    out.splice(i + 1 < sections.length ? sections[i + 1].at - 1 : out.length, 0, ...mine);
  }
  return out.join("\r\n") + "\r\n";
}

/** The answer's new credentials and candidates as an RFC 8840 fragment (under its first m= section, as RFC 9725's example). */
export function answerFrag(sdp: string): { frag: string; candidates: number } {
  const lines = sdp.split(/\r?\n/);
  const ufrag = lines.find((l) => l.startsWith("a=ice-ufrag:"));
  const pwd = lines.find((l) => l.startsWith("a=ice-pwd:"));
  const m = lines.findIndex((l) => l.startsWith("m="));
  const mid = lines.find((l) => l.startsWith("a=mid:"));
  // with BUNDLE every section lists the same candidates: the first section's are all of them
  const next = lines.findIndex((l, i) => i > m && l.startsWith("m="));
  const candidates = [...new Set(lines.slice(0, next === -1 ? undefined : next).filter((l) => l.startsWith("a=candidate:")))];
  const frag = [ufrag, pwd, lines[m], mid, ...candidates, "a=end-of-candidates"].filter((l): l is string => !!l).join("\r\n") + "\r\n";
  return { frag, candidates: candidates.length };
}

/** Restarts ICE on `pc` with the publisher's new credentials and candidates; `restartsSoFar` for MAX_ICE_RESTARTS. */
export async function restartIce(pc: RTCPeerConnection, frag: SdpFrag, restartsSoFar: number): Promise<IceRestartResult> {
  if (!frag.ufrag || !frag.pwd) return { ok: false, status: 400, message: "an ICE restart (If-Match: *) names the new a=ice-ufrag and a=ice-pwd" };
  if (frag.ufrag === remoteUfrag(pc)) return { ok: false, status: 400, message: "an ICE restart needs new ICE credentials: this a=ice-ufrag is the session's current one" };
  if (frag.ufrag.length < 4 || frag.ufrag.length > 256 || frag.pwd.length < 22 || frag.pwd.length > 256 || /\s/.test(frag.ufrag + frag.pwd)) {
    return { ok: false, status: 400, message: "ICE credentials out of range (RFC 8839: ice-ufrag 4–256, ice-pwd 22–256 characters)" };
  }
  if (restartsSoFar >= MAX_ICE_RESTARTS) return { ok: false, status: 429, message: `at most ${MAX_ICE_RESTARTS} ICE restarts per session: DELETE it and publish again` };
  if (frag.candidates.length > MAX_TRICKLED) return { ok: false, status: 429, message: `at most ${MAX_TRICKLED} candidates in one fragment` };
  const offer = pc.remoteDescription?.sdp;
  if (!offer) return { ok: false, status: 400, message: "the session has no offer to restart" };
  const candidates = frag.candidates.filter((c) => isIpCandidate(c.candidate));
  try {
    await pc.setRemoteDescription({ type: "offer", sdp: restartOffer(offer, { ...frag, ufrag: frag.ufrag, pwd: frag.pwd, candidates }) });
    await pc.setLocalDescription(await pc.createAnswer());
  } catch (err) {
    return { ok: false, status: 400, message: `ICE restart refused: ${(err as Error).message}` };
  }
  await gathered(pc);
  return { ok: true, ...answerFrag(pc.localDescription?.sdp ?? "") };
}
