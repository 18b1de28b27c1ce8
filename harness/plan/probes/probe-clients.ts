// The clients a probe set needs, from the address and name forms both configurations name (Allow/Deny from,
// Require ip/host/local): one client inside each form, localhost and localhost6 for loopback forms, and an
// outsider no form holds. An address client gets the very address (a network form's first host past .4, so it is
// never the gateway); a name form gets a client whose reverse name ends in it.
import { addressMatches, addressNetwork, hostMatches, isAddressForm } from "../../access/address-match.ts";
import type { EffectiveConfig } from "../../conf/effective-config.ts";
import { walkConfig } from "../../conf/queries/walk-config.ts";
import type { ProbeClient } from "./probe.ts";

// Documentation ranges no config names; not 192.0.2.0/24, which some engine hosts cannot route to containers.
const OUTSIDERS = ["198.51.100.77", "203.0.113.77", "100.127.255.77"];

function hostOf(bits: bigint, width: 32 | 128): string {
  if (width === 32) return [24n, 16n, 8n, 0n].map((s) => ((bits >> s) & 0xffn).toString()).join(".");
  const groups: string[] = [];
  for (let i = 7; i >= 0; i--) groups.push(((bits >> BigInt(16 * i)) & 0xffffn).toString(16));
  return groups.join(":").replace(/(^|:)0(:0)+(:|$)/, "::");
}

/** An address inside a form (null for `all` and forms that are no address). */
export function addressInside(form: string): string | null {
  const network = addressNetwork(form);
  if (network === null) return null;
  const hostBits = network.width - network.prefix;
  const offset = hostBits >= 3 ? 5n : 0n;
  return hostOf(network.bits + offset, network.width);
}

/** The `from` values and Require ip/host/local arguments of a config, as written. */
export function accessForms(config: EffectiveConfig): string[] {
  const forms: string[] = [];
  for (const entry of walkConfig(config).directives) {
    const d = entry.directive;
    if (d.key === "allow" || d.key === "deny") forms.push(...d.args.slice(1));
    if (d.key === "require") {
      const args = d.args[0]?.toLowerCase() === "not" ? d.args.slice(1) : d.args;
      const provider = args[0]?.toLowerCase();
      if (provider === "ip") forms.push(...args.slice(1));
      if (provider === "host") forms.push(...args.slice(1).map((h) => (h.includes(".") || h.startsWith(".") ? h : h)));
      if (provider === "local") forms.push("127.0.0.1", "::1");
    }
  }
  return forms.filter((f) => f.toLowerCase() !== "all" && !/^env=/i.test(f));
}

const LOOPBACK4 = "127.0.0.0/8";

/** The forms of per-directory files (.htaccess), read from their text: Allow/Deny from, Require ip/host. */
export function textAccessForms(text: string): string[] {
  const forms: string[] = [];
  for (const line of text.split("\n")) {
    const from = /^\s*(?:allow|deny)\s+from\s+(.+)$/i.exec(line);
    if (from) forms.push(...from[1]!.trim().split(/\s+/));
    const require = /^\s*require\s+(?:not\s+)?(ip|host)\s+(.+)$/i.exec(line);
    if (require) forms.push(...require[2]!.trim().split(/\s+/));
  }
  return forms.filter((f) => f.toLowerCase() !== "all" && !/^env=/i.test(f));
}

export function probeClients(configs: readonly EffectiveConfig[], extraForms: readonly string[] = []): ProbeClient[] {
  const forms = [...new Set([...configs.flatMap(accessForms), ...extraForms])];
  const clients: ProbeClient[] = [];
  const add = (client: ProbeClient): void => {
    if (!clients.some((c) => c.id === client.id || (c.address !== null && c.address === client.address && c.domain === client.domain))) clients.push(client);
  };
  let n = 0;
  for (const form of forms) {
    if (isAddressForm(form)) {
      const address = addressInside(form);
      if (address === null) continue;
      if (addressMatches(LOOPBACK4, address)) add({ id: "localhost", kind: "localhost", address: "127.0.0.1", domain: null, range: form });
      else if (addressMatches("::1", address)) add({ id: "localhost6", kind: "localhost6", address: "::1", domain: null, range: form });
      else add({ id: `addr-${++n}`, kind: "address", address, domain: null, range: form });
    } else {
      const domain = form.toLowerCase();
      if (domain === "localhost") add({ id: "localhost", kind: "localhost", address: "127.0.0.1", domain: null, range: form });
      else add({ id: `name-${++n}`, kind: "hostname", address: null, domain: domain.startsWith(".") || domain.split(".").length > 2 ? domain : `.${domain}`, range: form });
    }
  }
  const outsider = OUTSIDERS.find((address) => !forms.some((form) => (isAddressForm(form) ? addressMatches(form, address) : hostMatches(form, null))));
  add({ id: "outsider", kind: "outsider", address: outsider ?? OUTSIDERS[0]!, domain: null, range: "outsider" });
  return clients;
}
