import net from "node:net";

/** A BlockList of the allowed networks; an entry that is not an address or CIDR throws, naming `setting`. */
export function allowList(entries: readonly string[], setting = "METRICS_ALLOW"): net.BlockList {
  const list = new net.BlockList();
  for (const raw of entries) {
    const [addr, bits] = raw.split("/");
    const type = net.isIPv6(addr) ? "ipv6" : "ipv4";
    if (!net.isIP(addr)) throw new Error(`${setting}: "${raw}" is not an address or CIDR`);
    const max = type === "ipv6" ? 128 : 32;
    const prefix = bits === undefined ? max : Number(bits);
    if (!Number.isInteger(prefix) || prefix < 0 || prefix > max) throw new Error(`${setting}: "${raw}" has a bad prefix length`);
    list.addSubnet(addr, prefix, type);
  }
  return list;
}

/** Whether a TCP peer's address (never a forwarded header) is in the list; an IPv4-mapped IPv6 address counts as IPv4. */
export function peerIn(address: string | undefined, list: net.BlockList): boolean {
  let ip = address ?? "";
  if (ip.startsWith("::ffff:") && net.isIPv4(ip.slice(7))) ip = ip.slice(7);
  if (!net.isIP(ip)) return false;
  return list.check(ip, net.isIPv6(ip) ? "ipv6" : "ipv4");
}
