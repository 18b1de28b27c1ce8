// What a client's fixed address and DNS name may be (scenario `clients: [{ address, domain }]`), and the address
// parsing the engine's subnet choice shares. Pure.
import { isIP } from "node:net";

export interface ParsedAddress {
  family: 4 | 6;
  /** 4 or 16 bytes, network order. */
  bytes: number[];
}

/** Pure: an IPv4 or IPv6 literal as bytes; null when it is not one (no zone ids, no brackets, no prefix). */
export function parseAddress(text: string): ParsedAddress | null {
  // node's isIP takes zone ids (fe80::1%eth0), which name an interface, not an address.
  const family = text.includes("%") ? 0 : isIP(text);
  if (family === 4) return { family, bytes: text.split(".").map(Number) };
  if (family !== 6) return null;
  let head = text;
  let v4Tail: number[] = [];
  // An embedded IPv4 tail (::ffff:1.2.3.4) stands for the last two groups.
  const lastColon = text.lastIndexOf(":");
  if (text.slice(lastColon + 1).includes(".")) {
    v4Tail = text.slice(lastColon + 1).split(".").map(Number);
    head = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const [left, right] = head.includes("::") ? head.split("::") : [head, undefined];
  const groups = (part: string | undefined) => (part === undefined || part === "" ? [] : part.split(":").map((g) => Number.parseInt(g, 16)));
  const leftGroups = groups(left);
  const rightGroups = groups(right);
  const all = right === undefined ? leftGroups : [...leftGroups, ...new Array<number>(8 - leftGroups.length - rightGroups.length).fill(0), ...rightGroups];
  const bytes = all.flatMap((group) => [group >> 8, group & 0xff]);
  if (v4Tail.length === 4) bytes.splice(12, 4, ...v4Tail);
  return { family: 6, bytes };
}

/** Pure: the canonical text of an address (IPv6 lower case, longest zero run as ::), as Docker reports it. */
export function formatAddress(address: ParsedAddress): string {
  if (address.family === 4) return address.bytes.join(".");
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((address.bytes[i]! << 8) | address.bytes[i + 1]!);
  let best = { start: -1, length: 0 };
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i += 1;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j += 1;
    if (j - i > best.length && j - i > 1) best = { start: i, length: j - i };
    i = j;
  }
  const hex = (list: number[]) => list.map((g) => g.toString(16)).join(":");
  if (best.start < 0) return hex(groups);
  return `${hex(groups.slice(0, best.start))}::${hex(groups.slice(best.start + best.length))}`;
}

/** Pure: why an address cannot be a client container's, or null. Loopback is the local clients' (`localhost`,
 * `localhost6`); multicast, unspecified and broadcast addresses are no host's. */
export function clientAddressProblem(text: string): string | null {
  const address = parseAddress(text);
  if (address === null) return "is not an IPv4 or IPv6 address";
  const [a = 0, b = 0] = address.bytes;
  if (address.family === 4) {
    if (a === 127) return "is a loopback address: send from the server itself with client: localhost";
    if (a >= 224 && a <= 239) return "is a multicast address";
    if (address.bytes.every((byte) => byte === 0)) return "is the unspecified address";
    if (address.bytes.every((byte) => byte === 255)) return "is the broadcast address";
    if (a === 0 || a >= 240) return "is in a reserved range (0.0.0.0/8, 240.0.0.0/4) no host has";
    return null;
  }
  const zeroPrefix = address.bytes.slice(0, 15).every((byte) => byte === 0);
  if (zeroPrefix && address.bytes[15] === 1) return "is the loopback address: send from the server itself with client: localhost6";
  if (zeroPrefix && address.bytes[15] === 0) return "is the unspecified address";
  if (a === 0xff) return "is a multicast address";
  if (a === 0xfe && (b & 0xc0) === 0x80) return "is a link-local address, which needs an interface and no network of its own";
  if (address.bytes.slice(0, 10).every((byte) => byte === 0) && address.bytes[10] === 0xff && address.bytes[11] === 0xff) {
    return "is an IPv4-mapped address: write the IPv4 address";
  }
  return null;
}

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

/** Pure: why a client domain is not a DNS name ("www.example.com", two labels at least, since Docker's DNS
 * makes it `<container>.<network>`) or a domain the name ends in (".example.com"); null when it is one. */
export function clientDomainProblem(text: string): string | null {
  const suffix = text.startsWith(".");
  const name = suffix ? text.slice(1) : text;
  if (name === "") return "is empty";
  if (name.endsWith(".")) return "ends with a dot: write the name without the root dot";
  if (name.length > 200) return "is longer than 200 characters (the harness puts its own labels in front of a domain)";
  const labels = name.split(".");
  const bad = labels.find((label) => !LABEL.test(label));
  if (bad !== undefined) return bad === "" ? "has an empty label (two dots)" : `has the label "${bad}", which is not letters, digits and inner hyphens (at most 63)`;
  if (/^[0-9]+$/.test(labels.at(-1)!)) return "ends in a numeric label: an address is not a DNS name";
  if (!suffix && labels.length < 2) return "is a single label: a full name needs a domain (www.example.com), or write .domain for names ending in it";
  return null;
}

export interface ClientSubnet {
  family: 4 | 6;
  /** CIDR, canonical: 10.77.1.0/24, 2001:db8:77::/64. */
  subnet: string;
  /** The network's gateway: never the client's address. */
  gateway: string;
}

/** Pure: the subnet a client's network gets for its fixed address (IPv4 /24, IPv6 /64) and a gateway that is not
 * the address (the first host, else the last); a problem for an address no host of that subnet can have. */
export function clientSubnet(text: string): ClientSubnet | { problem: string } {
  const address = parseAddress(text);
  if (address === null) return { problem: "is not an IPv4 or IPv6 address" };
  const prefix = address.family === 4 ? 3 : 8;
  const network = [...address.bytes.slice(0, prefix), ...new Array<number>(address.bytes.length - prefix).fill(0)];
  const host = address.bytes.slice(prefix);
  const family = address.family;
  const subnet = `${formatAddress({ family, bytes: network })}/${prefix * 8}`;
  if (host.every((byte) => byte === 0)) return { problem: `is the network address of ${subnet}, which no container can have` };
  if (family === 4 && host.every((byte) => byte === 255)) return { problem: `is the broadcast address of ${subnet}` };
  const first = [...network.slice(0, -1), 1];
  const last = family === 4 ? [...network.slice(0, -1), 254] : [...network.slice(0, -2), 0xff, 0xfe];
  const isFirst = first.every((byte, i) => byte === address.bytes[i]);
  return { family, subnet, gateway: formatAddress({ family, bytes: isFirst ? last : first }) };
}

/** Pure: where the engine gives addresses of its own choice on a network several scenarios share, so that the
 * servers joining it stay clear of the low addresses clients ask for (a network form's .5, the outsider's .77):
 * the upper half of an IPv4 /24 (10.77.1.128/25), the upper half of an IPv6 subnet's last 16 bits
 * (2001:db8:77::8000/113; Docker's address allocator refuses ranges of more than 2^63 addresses). */
export function engineAssignedRange(subnet: ClientSubnet): string {
  const address = parseAddress(subnet.subnet.split("/")[0] ?? "")!;
  const prefix = address.family === 4 ? Number(subnet.subnet.split("/")[1]) : 112;
  const bytes = [...address.bytes];
  bytes[prefix >> 3] = bytes[prefix >> 3]! | (0x80 >> (prefix & 7));
  return `${formatAddress({ family: address.family, bytes })}/${prefix + 1}`;
}

/** Pure: whether two fixed addresses (null: the engine's choice, which fits any) get one subnet. */
export function sameSubnet(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return true;
  const left = clientSubnet(a);
  const right = clientSubnet(b);
  return "subnet" in left && "subnet" in right && left.subnet === right.subnet;
}

/** Pure: whether two CIDR subnets share an address (a subnet without a prefix length is one address). */
export function subnetsOverlap(a: string, b: string): boolean {
  const parse = (cidr: string) => {
    const [text = "", length] = cidr.split("/");
    const address = parseAddress(text);
    return address === null ? null : { address, prefix: length === undefined ? address.bytes.length * 8 : Number(length) };
  };
  const left = parse(a);
  const right = parse(b);
  if (left === null || right === null || left.address.family !== right.address.family) return false;
  const bits = Math.min(left.prefix, right.prefix);
  for (let i = 0; i < bits; i++) {
    const bit = (bytes: number[]) => (bytes[i >> 3]! >> (7 - (i & 7))) & 1;
    if (bit(left.address.bytes) !== bit(right.address.bytes)) return false;
  }
  return true;
}
