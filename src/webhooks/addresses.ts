import { BlockList, isIP } from "node:net";

/**
 * What an IP address is, for where a webhook may be sent: `loopback` (this machine, allowed only in
 * development), `internal` (private, link-local, shared, documentation, multicast, reserved: never)
 * or `public`.
 */
export type AddressKind = "public" | "loopback" | "internal";

const V4_LOOPBACK = new BlockList();
V4_LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");

const V4_INTERNAL = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // shared address space (carrier-grade NAT)
  ["169.254.0.0", 16], // link-local: cloud metadata services live at 169.254.169.254
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 3], // multicast, reserved and broadcast: 224.0.0.0 to 255.255.255.255
] as const) {
  V4_INTERNAL.addSubnet(network, prefix, "ipv4");
}

const V6_INTERNAL = new BlockList();
for (const [network, prefix] of [
  ["::", 96], // unspecified (::) and the deprecated IPv4-compatible form (::a.b.c.d); ::1 is checked first
  ["64:ff9b:1::", 48], // local-use NAT64
  ["100::", 64], // discard-only
  ["2001::", 32], // Teredo: the real IPv4 address is hidden inside
  ["2001:db8::", 32], // documentation
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
] as const) {
  V6_INTERNAL.addSubnet(network, prefix, "ipv6");
}

/**
 * An address as `isIP` accepts it, lower case, without the brackets of a URL host and without a
 * zone id (`fe80::1%eth0`), or null when `text` is not an IP address.
 */
export function normalizeAddress(text: string): string | null {
  let address = text.trim().toLowerCase();
  if (address.startsWith("[") && address.endsWith("]")) address = address.slice(1, -1);
  const zone = address.indexOf("%");
  if (zone !== -1) address = address.slice(0, zone);
  return isIP(address) === 0 ? null : address;
}

/** The eight 16-bit groups of a valid, normalized IPv6 address (`::` expanded, a dotted tail folded). */
function ipv6Groups(address: string): number[] {
  let text = address;
  if (text.includes(".")) {
    const colon = text.lastIndexOf(":");
    const [a, b, c, d] = text
      .slice(colon + 1)
      .split(".")
      .map(Number) as [number, number, number, number];
    text = `${text.slice(0, colon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const part = (side: string) =>
    side === "" ? [] : side.split(":").map((group) => Number.parseInt(group, 16));
  const front = part(head);
  const back = tail === undefined ? [] : part(tail);
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

const dotted = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/**
 * The IPv4 address an IPv6 address carries and reaches, in the forms that route to it: mapped
 * (`::ffff:a.b.c.d`), translated (`::ffff:0:a.b.c.d`), NAT64 (`64:ff9b::a.b.c.d`) and 6to4
 * (`2002:AABB:CCDD::`). Null for any other address.
 */
function embeddedIpv4(g: number[]): string | null {
  const zeros = (from: number, to: number) => g.slice(from, to).every((group) => group === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return dotted(g[6]!, g[7]!);
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return dotted(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return dotted(g[6]!, g[7]!);
  if (g[0] === 0x2002) return dotted(g[1]!, g[2]!);
  return null;
}

function classifyIpv4(address: string): AddressKind {
  if (V4_LOOPBACK.check(address, "ipv4")) return "loopback";
  return V4_INTERNAL.check(address, "ipv4") ? "internal" : "public";
}

/** The kind of an IP address in any textual form, or null when `text` is not one. */
export function classifyAddress(text: string): AddressKind | null {
  const address = normalizeAddress(text);
  if (address === null) return null;
  if (isIP(address) === 4) return classifyIpv4(address);
  const groups = ipv6Groups(address);
  const ipv4 = embeddedIpv4(groups);
  if (ipv4 !== null) return classifyIpv4(ipv4);
  if (groups.every((group, i) => group === (i === 7 ? 1 : 0))) return "loopback";
  return V6_INTERNAL.check(address, "ipv6") ? "internal" : "public";
}
