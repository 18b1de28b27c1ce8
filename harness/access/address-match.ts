// How 2.2's Allow/Deny and 2.4's Require ip / Require host match a client, which is the same on both versions:
// a full address, a partial IPv4 address (`10.1` = 10.1.0.0/16), network/netmask, network/CIDR, IPv6 with or
// without a prefix; a host name matches the client's double-reverse-checked name exactly or as a domain suffix
// on a label boundary (`example.com` and `.example.com` both match `www.example.com`).

/** An address as a bit string of 32 or 128 bits; null when it is none. */
export function addressBits(text: string): { bits: bigint; width: 32 | 128 } | null {
  const v4 = ipv4(text);
  if (v4 !== null) return { bits: v4, width: 32 };
  const v6 = ipv6(text);
  return v6 === null ? null : { bits: v6, width: 128 };
}

function ipv4(text: string): bigint | null {
  const parts = text.split(".");
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return null;
  return parts.reduce((acc, p) => (acc << 8n) | BigInt(Number(p)), 0n);
}

function ipv6(text: string): bigint | null {
  const body = text.replace(/^\[|\]$/g, "").toLowerCase();
  // Embedded IPv4 (::ffff:1.2.3.4) is not read: no config form of the catalogue uses it.
  if (!/^[0-9a-f:]+$/.test(body) || !body.includes(":")) return null;
  const halves = body.split("::");
  if (halves.length > 2) return null;
  const parse = (s: string): bigint[] | null => {
    if (s === "") return [];
    const groups = s.split(":");
    if (groups.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
    return groups.map((g) => BigInt(parseInt(g, 16)));
  };
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  if (head === null || rest === null) return null;
  const written = head.length + rest.length;
  if ((halves.length === 1 && written !== 8) || written > 8) return null;
  const groups = halves.length === 2 ? [...head, ...Array<bigint>(8 - written).fill(0n), ...rest] : head;
  return groups.reduce((acc, g) => (acc << 16n) | g, 0n);
}

/** Whether an Allow/Deny/Require ip argument is an address form (else it is a host name). */
export function isAddressForm(spec: string): boolean {
  return /^[0-9.]+(\/[0-9.]+)?$/.test(spec) || spec.includes(":");
}

/** The network an address form stands for; null when it is not one httpd would accept. */
export function addressNetwork(spec: string): { bits: bigint; width: 32 | 128; prefix: number } | null {
  const [base = "", mask] = spec.split("/");
  if (/^\d+(\.\d+){0,3}\.?$/.test(base) && !base.includes(":")) {
    const octets = base.replace(/\.$/, "").split(".");
    if (octets.length < 4 && mask === undefined) {
      // a partial address: the octets given, the rest any
      if (octets.some((o) => Number(o) > 255)) return null;
      const bits = octets.reduce((acc, o) => (acc << 8n) | BigInt(Number(o)), 0n) << BigInt(8 * (4 - octets.length));
      return { bits, width: 32, prefix: 8 * octets.length };
    }
  }
  const address = addressBits(base);
  if (address === null) return null;
  let prefix = address.width as number;
  if (mask !== undefined) {
    if (/^\d+$/.test(mask)) prefix = Number(mask);
    else {
      const m = ipv4(mask);
      if (m === null || address.width !== 32) return null;
      prefix = m.toString(2).replace(/0+$/, "").length;
    }
    if (prefix > address.width) return null;
  }
  const shift = BigInt(address.width - prefix);
  return { bits: (address.bits >> shift) << shift, width: address.width, prefix };
}

// Probe generation and the exhaustive test ask the same few forms millions of times.
const networks = new Map<string, ReturnType<typeof addressNetwork>>();
const addresses = new Map<string, ReturnType<typeof addressBits>>();

export function addressMatches(spec: string, client: string): boolean {
  let network = networks.get(spec);
  if (network === undefined) networks.set(spec, (network = addressNetwork(spec)));
  let address = addresses.get(client);
  if (address === undefined) addresses.set(client, (address = addressBits(client)));
  if (network === null || address === null) return false;
  let bits = address.bits;
  let width: number = address.width;
  // An IPv4 client as ::ffff:a.b.c.d still matches an IPv4 form (apr_ipsubnet_test does).
  if (network.width === 32 && width === 128 && bits >> 32n === 0xffffn) {
    bits &= 0xffffffffn;
    width = 32;
  }
  if (network.width !== width) return false;
  const shift = BigInt(network.width - network.prefix);
  return bits >> shift === network.bits >> shift;
}

export function hostMatches(spec: string, hostname: string | null): boolean {
  if (hostname === null) return false;
  const name = hostname.toLowerCase().replace(/\.$/, "");
  const domain = spec.toLowerCase().replace(/\.$/, "");
  if (domain.startsWith(".")) return name.endsWith(domain);
  return name === domain || name.endsWith(`.${domain}`);
}
