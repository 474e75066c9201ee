import { isIP } from "node:net";
import { parseIPv6 } from "../ingest/ip-ranges";

/** One network of an allow list, normalised: IPv4-mapped IPv6 ranges (::ffff:a.b.c.d/≥96) become IPv4 ones. */
export interface Cidr {
  family: 4 | 6;
  base: bigint;
  bits: number;
}

const v4Big = (ip: string) => ip.split(".").reduce((acc, p) => (acc << 8n) | BigInt(Number(p)), 0n);
const v6Big = (ip: string) => parseIPv6(ip).reduce((acc, g) => (acc << 16n) | BigInt(g), 0n);
const MAPPED_PREFIX = 0xffffn << 32n; // ::ffff:0:0/96

/** An address as (family, number); an IPv4-mapped IPv6 address (::ffff:a.b.c.d) counts as the IPv4 one. Null for non-addresses. */
export function addressKey(raw: string): { family: 4 | 6; value: bigint } | null {
  const ip = raw.trim().replace(/^\[(.*)\]$/, "$1");
  const kind = ip.includes("%") ? 0 : isIP(ip);
  if (kind === 4) return { family: 4, value: v4Big(ip) };
  if (kind !== 6) return null;
  const value = v6Big(ip);
  if (value >> 32n === 0xffffn) return { family: 4, value: value & 0xffffffffn };
  return { family: 6, value };
}

const maskOf = (family: 4 | 6, bits: number) => {
  const width = family === 4 ? 32n : 128n;
  return ((1n << width) - 1n) ^ ((1n << (width - BigInt(bits))) - 1n);
};

/** "10.0.0.0/8", "fd00::/8", "192.168.1.20" (one host), "::ffff:10.0.0.0/104" (mapped → 10.0.0.0/8). Throws on anything else. */
export function parseCidr(raw: string): Cidr {
  const text = raw.trim();
  const slash = text.indexOf("/");
  const addr = slash < 0 ? text : text.slice(0, slash);
  const bitsText = slash < 0 ? null : text.slice(slash + 1);
  const key = addressKey(addr);
  if (!key || addr.startsWith("[")) throw new Error(`"${raw}" is not an IPv4/IPv6 address or CIDR`);
  const written = isIP(addr) === 4 ? 32 : 128;
  if (bitsText !== null && !/^\d{1,3}$/.test(bitsText)) throw new Error(`"${raw}" has a bad prefix length`);
  let bits = bitsText === null ? written : Number(bitsText);
  if (bits > written) throw new Error(`"${raw}" has a prefix length over ${written}`);
  if (written === 128 && key.family === 4) {
    // written as IPv6 but inside ::ffff:0:0/96: a prefix that keeps the mapped prefix is an IPv4 range
    if (bits < 96) return { family: 6, base: (MAPPED_PREFIX | key.value) & maskOf(6, bits), bits };
    bits -= 96;
  }
  return { family: key.family, base: key.value & maskOf(key.family, bits), bits };
}

const cidrText = (c: Cidr): string => {
  if (c.family === 4) return `${[24n, 16n, 8n, 0n].map((s) => String((c.base >> s) & 0xffn)).join(".")}/${c.bits}`;
  const groups = Array.from({ length: 8 }, (_, i) => ((c.base >> BigInt(112 - 16 * i)) & 0xffffn).toString(16));
  return `${groups.join(":")}/${c.bits}`;
};

/** A list of allowed networks (ALLOW_NETWORKS): which private addresses outbound requests may still reach. */
export class NetworkList {
  private constructor(private readonly cidrs: readonly Cidr[]) {}

  static readonly EMPTY = new NetworkList([]);

  /** Comma-separated text or entries; a bad entry throws an Error naming `setting` and the entry. */
  static parse(entries: string | readonly string[] | undefined, setting = "ALLOW_NETWORKS"): NetworkList {
    const raw = typeof entries === "string" ? entries.split(",") : (entries ?? []);
    const cidrs: Cidr[] = [];
    for (const e of raw.map((x) => x.trim()).filter(Boolean)) {
      try {
        cidrs.push(parseCidr(e));
      } catch (err) {
        throw new Error(`${setting}: ${(err as Error).message} (expected a comma-separated list such as 10.1.2.3/32,fd00:1::/64)`);
      }
    }
    return cidrs.length ? new NetworkList(cidrs) : NetworkList.EMPTY;
  }

  get size(): number {
    return this.cidrs.length;
  }

  /** Whether `ip` (IPv4, IPv6, IPv4-mapped IPv6, bracketed or not) lies in one of the networks; false for non-addresses. */
  has(ip: string): boolean {
    const key = addressKey(ip);
    if (!key) return false;
    return this.cidrs.some((c) => c.family === key.family && (key.value & maskOf(c.family, c.bits)) === c.base);
  }

  /** The normalised networks, e.g. ["10.0.0.0/8", "fd00:0:0:0:0:0:0:0/8"]. */
  list(): string[] {
    return this.cidrs.map(cidrText);
  }

  toJSON(): string[] {
    return this.list();
  }
}
