import { isIPv4, isIPv6 } from "node:net";

/** a.b.c.d → 32-bit unsigned. */
function v4ToInt(ip: string): number {
  return ip.split(".").reduce((acc, part) => acc * 256 + Number(part), 0);
}

// [network, prefix length]: everything not globally routable, plus test and benchmark nets.
const PRIVATE_V4: ReadonlyArray<readonly [string, number]> = [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // CGNAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, incl. cloud metadata 169.254.169.254
  ["172.16.0.0", 12],
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // TEST-NET-1
  ["192.88.99.0", 24], // 6to4 relay anycast
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // TEST-NET-2
  ["203.0.113.0", 24], // TEST-NET-3
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, incl. broadcast 255.255.255.255
];
const V4_RANGES = PRIVATE_V4.map(([net, bits]) => {
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return { base: (v4ToInt(net) & mask) >>> 0, mask };
});

function isPrivateV4(ip: string): boolean {
  const n = v4ToInt(ip);
  return V4_RANGES.some(({ base, mask }) => ((n & mask) >>> 0) === base);
}

/** Expands any valid IPv6 text (with ::, embedded dotted quad) into 8 16-bit groups. */
export function parseIPv6(ip: string): number[] {
  let text = ip.replace(/%.*$/, ""); // zone id
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const n = v4ToInt(dotted[1]);
    text = text.slice(0, dotted.index) + `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, undefined];
  const parse = (s: string) => (s ? s.split(":").map((g) => parseInt(g, 16)) : []);
  const h = parse(head);
  if (tail === undefined) return h;
  const t = parse(tail);
  return [...h, ...new Array(8 - h.length - t.length).fill(0), ...t];
}

const groupsToV4 = (hi: number, lo: number) => `${hi >>> 8}.${hi & 0xff}.${lo >>> 8}.${lo & 0xff}`;

/** The IPv4 address an IPv6 address carries (mapped, compatible, NAT64, 6to4, Teredo client), if any. */
export function embeddedIPv4(g: number[]): string | null {
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return groupsToV4(g[6], g[7]); // ::ffff:a.b.c.d
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return groupsToV4(g[6], g[7]); // SIIT ::ffff:0:a.b.c.d
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return groupsToV4(g[6], g[7]); // NAT64 64:ff9b::/96
  if (g[0] === 0x2002) return groupsToV4(g[1], g[2]); // 6to4 2002:AABB:CCDD::/48
  if (g[0] === 0x2001 && g[1] === 0) return groupsToV4(~g[6] & 0xffff, ~g[7] & 0xffff); // Teredo: client address inverted
  return null;
}

function isPrivateV6(ip: string): boolean {
  const g = parseIPv6(ip);
  if (g.slice(0, 6).every((x) => x === 0)) return true; // ::, ::1 and deprecated IPv4-compatible ::a.b.c.d
  if ((g[0] & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
  if ((g[0] & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
  if ((g[0] & 0xffc0) === 0xfec0) return true; // fec0::/10 deprecated site-local
  if ((g[0] & 0xff00) === 0xff00) return true; // multicast
  if (g[0] === 0x100 && g[1] === 0 && g[2] === 0 && g[3] === 0) return true; // 100::/64 discard
  if (g[0] === 0x2001 && g[1] === 0xdb8) return true; // documentation
  if ((g[0] & 0xfff0) === 0x3ff0) return true; // 3fff::/20 documentation (RFC 9637)
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return true; // 64:ff9b:1::/48 local-use NAT64
  const v4 = embeddedIPv4(g);
  return v4 !== null && isPrivateV4(v4);
}

/** True for any address that is not a public unicast one; text that is no IP address counts as private. */
export function isPrivateAddress(ip: string): boolean {
  const text = ip.trim().replace(/^\[(.*)\]$/, "$1");
  if (isIPv4(text)) return isPrivateV4(text);
  if (isIPv6(text)) return isPrivateV6(text);
  return true;
}
