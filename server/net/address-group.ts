import net from "node:net";

/**
 * The throttling key of a client address: IPv4 as it is, IPv6 by its /64 (one host usually holds a whole /64,
 * so per-address budgets would otherwise be 2^64 budgets). An IPv4-mapped IPv6 address counts as its IPv4.
 */
export function addressGroup(ip: string): string {
  const bare = ip.replace(/%.*$/, "");
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped) return mapped[1];
  if (!net.isIPv6(bare)) return bare;
  const [head, tail = ""] = bare.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  let right = bare.includes("::") ? (tail ? tail.split(":") : []) : [];
  // a trailing dotted IPv4 part holds two groups; only the first four groups matter here, so it just counts as two
  if (right.length && right[right.length - 1].includes(".")) right = [...right.slice(0, -1), "0", "0"];
  const groups = bare.includes("::") ? [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right] : left;
  return `${groups.slice(0, 4).map((g) => Number.parseInt(g, 16).toString(16)).join(":")}::/64`;
}
