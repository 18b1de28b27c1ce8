// A certificate subject as the scenario format writes it: OpenSSL's slash form, the one `openssl req -subj`
// takes and operators know ("/C=DE/O=Example, Inc./OU=Web/CN=server.test"), most significant part first. It is
// parsed at load time into typed parts, order kept; the certificate factory turns them into the DER Name.
//
// The form, as OpenSSL's parse_name reads it without -multivalue-rdn: a leading "/", then attribute=value
// fields separated by "/"; a backslash makes the next character literal ("\/" is a slash in a value, "\\" a
// backslash). Commas, "+", "=" and quotes in values need no escaping. Unlike OpenSSL, an empty value or an
// unknown attribute is an error rather than a warning and a skipped field.

/** How an attribute's value is encoded, as `openssl req` encodes it (OpenSSL's string table, a_strnid.c). */
export type SubjectStringType = "utf8String" | "printableString" | "ia5String";

export interface SubjectAttributeInfo {
  oid: string;
  /** The X.520 / PKCS#9 name, for messages. */
  longName: string;
  stringType: SubjectStringType;
  /** Length bounds in characters, as OpenSSL enforces them. */
  min: number;
  max: number;
}

/** The attributes a subject may use, by OpenSSL's short name (case matters, as in OpenSSL). */
export const SUBJECT_ATTRIBUTES = {
  C: { oid: "2.5.4.6", longName: "countryName", stringType: "printableString", min: 2, max: 2 },
  ST: { oid: "2.5.4.8", longName: "stateOrProvinceName", stringType: "utf8String", min: 1, max: 128 },
  L: { oid: "2.5.4.7", longName: "localityName", stringType: "utf8String", min: 1, max: 128 },
  O: { oid: "2.5.4.10", longName: "organizationName", stringType: "utf8String", min: 1, max: 64 },
  OU: { oid: "2.5.4.11", longName: "organizationalUnitName", stringType: "utf8String", min: 1, max: 64 },
  CN: { oid: "2.5.4.3", longName: "commonName", stringType: "utf8String", min: 1, max: 64 },
  title: { oid: "2.5.4.12", longName: "title", stringType: "utf8String", min: 1, max: 64 },
  serialNumber: { oid: "2.5.4.5", longName: "serialNumber", stringType: "printableString", min: 1, max: 64 },
  GN: { oid: "2.5.4.42", longName: "givenName", stringType: "utf8String", min: 1, max: 64 },
  SN: { oid: "2.5.4.4", longName: "surname", stringType: "utf8String", min: 1, max: 64 },
  emailAddress: { oid: "1.2.840.113549.1.9.1", longName: "emailAddress", stringType: "ia5String", min: 1, max: 128 },
  DC: { oid: "0.9.2342.19200300.100.1.25", longName: "domainComponent", stringType: "ia5String", min: 1, max: 63 },
} as const satisfies Record<string, SubjectAttributeInfo>;

export type SubjectAttribute = keyof typeof SUBJECT_ATTRIBUTES;

/** One relative distinguished name with a single attribute (what `openssl req -subj` makes by default). */
export interface SubjectPart {
  attribute: SubjectAttribute;
  value: string;
}

/** A subject, most significant part first (the order of the slash form and of the DER SEQUENCE). */
export type Subject = readonly SubjectPart[];

export type SubjectParseResult =
  | { ok: true; subject: Subject }
  /** `index`: where in the text the problem starts. */
  | { ok: false; problem: string; index: number };

/** X.680 PrintableString characters. */
const PRINTABLE = /^[A-Za-z0-9 '()+,\-./:=?]*$/;
/** IA5String: ASCII, control characters included. */
const IA5 = /^[\x00-\x7f]*$/;

export const SUBJECT_EXAMPLE = "/C=DE/O=Example, Inc./OU=Web/CN=server.test";

export function isSubjectAttribute(name: string): name is SubjectAttribute {
  return Object.hasOwn(SUBJECT_ATTRIBUTES, name);
}

/** Parses the slash form. Every problem names the field and where it starts. */
export function parseSubject(text: string): SubjectParseResult {
  if (!text.startsWith("/")) {
    return { ok: false, problem: 'a subject starts with "/" (OpenSSL\'s form: /type=value/type=value...)', index: 0 };
  }
  const parts: SubjectPart[] = [];
  let index = 1;
  while (index < text.length) {
    const start = index;
    const type = readUntil(text, index, "=");
    if (type.escapeAtEnd) return { ok: false, problem: "a backslash ends the subject; it escapes nothing", index: text.length - 1 };
    if (type.stop === "/" && type.end === start) return { ok: false, problem: 'an empty field ("//")', index: start };
    if (type.stop !== "=") {
      return { ok: false, problem: `field "${text.slice(start, type.end)}" has no "=" (write type=value)`, index: start };
    }
    const attribute = type.value;
    if (!isSubjectAttribute(attribute)) {
      return { ok: false, problem: `unknown attribute "${attribute}"${didYouMean(attribute)}`, index: start };
    }
    const valueStart = type.end + 1;
    const value = readUntil(text, valueStart, "/");
    if (value.escapeAtEnd) return { ok: false, problem: "a backslash ends the subject; it escapes nothing", index: text.length - 1 };
    const problem = valueProblem(attribute, value.value);
    if (problem !== null) return { ok: false, problem: `${attribute}: ${problem}`, index: valueStart };
    parts.push({ attribute, value: value.value });
    index = value.end + 1;
  }
  if (parts.length === 0) return { ok: false, problem: "a subject needs at least one attribute", index: 0 };
  return { ok: true, subject: parts };
}

/** The slash form of a subject; "/" and "\" in values are escaped, so parseSubject reads it back. */
export function formatSubject(subject: Subject): string {
  return subject.map((part) => `/${part.attribute}=${part.value.replace(/[\\/]/g, (c) => `\\${c}`)}`).join("");
}

/** Why a value does not fit its attribute, or null. Throws nothing: the factory and the loader both use it. */
export function valueProblem(attribute: SubjectAttribute, value: string): string | null {
  const info: SubjectAttributeInfo = SUBJECT_ATTRIBUTES[attribute];
  const length = [...value].length;
  if (length === 0) return "the value is empty";
  if (length < info.min || length > info.max) {
    const bounds = info.min === info.max ? `exactly ${info.min}` : `${info.min} to ${info.max}`;
    return `${info.longName} takes ${bounds} characters, got ${length}`;
  }
  if (info.stringType === "printableString" && !PRINTABLE.test(value)) {
    return `${info.longName} is a PrintableString: letters, digits, space and ' ( ) + , - . / : = ? only`;
  }
  if (info.stringType === "ia5String" && !IA5.test(value)) return `${info.longName} is an IA5String: ASCII only`;
  return null;
}

function readUntil(text: string, from: number, stop: "=" | "/"): { value: string; end: number; stop: string | null; escapeAtEnd: boolean } {
  let value = "";
  let index = from;
  while (index < text.length) {
    const c = text[index] as string;
    if (c === "\\") {
      if (index + 1 >= text.length) return { value, end: index, stop: null, escapeAtEnd: true };
      value += text[index + 1];
      index += 2;
      continue;
    }
    // A "/" also ends a type that has no "=" yet, so "/CN/O=x" reports the field "CN".
    if (c === stop || c === "/") return { value, end: index, stop: c, escapeAtEnd: false };
    value += c;
    index += 1;
  }
  return { value, end: index, stop: null, escapeAtEnd: false };
}

function didYouMean(name: string): string {
  const known = Object.keys(SUBJECT_ATTRIBUTES);
  const byCase = known.find((candidate) => candidate.toLowerCase() === name.toLowerCase());
  if (byCase !== undefined) return ` (did you mean ${byCase}? attribute names are case-sensitive)`;
  const byLongName = known.find((candidate) => SUBJECT_ATTRIBUTES[candidate as SubjectAttribute].longName.toLowerCase() === name.toLowerCase());
  if (byLongName !== undefined) return ` (write the short name: ${byLongName})`;
  return `; known: ${known.join(", ")}`;
}
