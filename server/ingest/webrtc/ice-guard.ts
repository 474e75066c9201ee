// The egress rules applied to a WHEP pull's ICE media path: the signalling URL is checked and pinned like any
// other, and werift is told to pair with (and answer STUN from) only remote addresses the same policy allows.
import { isIP } from "node:net";
import type { PeerConfig } from "werift";
import type { EgressPolicy } from "../../net/egress-proxy";
import { isPrivateAddress } from "../ip-ranges";

/**
 * May media flow to/from `address`? Public addresses yes; private ones only when the policy allows them, they lie
 * in ALLOW_NETWORKS, or they are the very addresses the (exempt) signalling URL was vetted at. Names (mDNS
 * `.local` candidates) are refused: they would need a second resolution nobody checked.
 */
export function iceAddressAllowed(address: string, egress: EgressPolicy, vetted: readonly string[] = []): boolean {
  const a = address.replace(/^::ffff:/, "");
  if (isIP(a) === 0) return false;
  if (egress.allowPrivate || !isPrivateAddress(a)) return true;
  return (egress.allowNetworks?.has(a) ?? false) || vetted.includes(a);
}

/** werift options that keep ICE to allowed addresses; `refused` collects what was dropped (for the failure message). */
export function iceGuard(egress: EgressPolicy, vetted: readonly string[], refused: Set<string>): Partial<PeerConfig> {
  const allowed = (host: string) => {
    const ok = iceAddressAllowed(host, egress, vetted);
    if (!ok && refused.size < 20) refused.add(host);
    return ok;
  };
  return {
    iceFilterCandidatePair: (pair) => allowed(pair.remoteCandidate.host),
    iceFilterStunResponse: (_message, addr) => allowed(addr[0]),
  };
}
