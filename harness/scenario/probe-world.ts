// The probe world as a scenario carries it: what both sides of a tree scenario are given so that a probe reaches
// the decision it stands for (identities in every auth store, an object behind every path), and what each request
// asks for. Plain data made by plan/probes/ (generate-probes.ts) and staged per side by plan/tree/world-staging.ts;
// here because the scenario, the lowest stage that holds it, must not import the plan.

/** How credentials are sent: Basic, or Digest (curl --digest: the challenge, then the answer to it). */
export type AuthScheme = "basic" | "digest";

/** The virtual host a probe is for, as both the Host header and the TLS server name say it. */
export interface ProbeTarget {
  host: string | null;
  port: number;
  tls: boolean;
}

/** What a probe asks for, as the world plants it where the tree does not hold it:
 * - static: a file whose text is its marker;
 * - index: the page DirectoryIndex serves for a directory URL;
 * - cgi: an executable script that prints `executed-<marker>` when it runs (its source never holds that text);
 * - ssi: a page whose SSI directives print `ssi-ran-<marker>` when parsed;
 * - hidden: a file that must stay hidden (.htaccess, .htpasswd, a backup), holding its marker. */
export type ObjectKind = "static" | "index" | "cgi" | "ssi" | "hidden";

/** The config line that made the harness ask for a path (and so plant what is there). */
export interface ConfigOrigin {
  file: string;
  line: number;
  text: string;
}

export interface ProbeObject {
  kind: ObjectKind;
  /** Unique to the URL ("hpw-" and 12 hex digits), the same on both sides. */
  marker: string;
  origin: ConfigOrigin | null;
}

/** A user the harness adds, on both sides alike, to every user store the config names (AuthUserFile as htpasswd
 * and, for each Digest realm, htdigest lines; AuthDBMUserFile with htdbm), with its groups in every group store
 * (AuthGroupFile, AuthDBMGroupFile). */
export interface WorldUser {
  name: string;
  password: string;
  groups: string[];
  /** Why the world holds it: "Require user admin (site.conf:12)", "a valid user no Require names". */
  reason: string;
}

/** An object the probes ask for, by the URL both sides are asked it at: each side plants it at the file its own
 * config maps the URL to (world-staging.ts), unless its tree holds that file. */
export interface WorldObject {
  target: ProbeTarget;
  url: string;
  kind: ObjectKind;
  marker: string;
  origin: ConfigOrigin | null;
}

/** What both sides are given so that a probe reaches the decision it stands for: identities in every store, an
 * object behind every path. The same on both sides; staged per side (plan/tree/world-staging.ts). */
export interface ProbeWorld {
  users: WorldUser[];
  /** The realms (AuthName) of Digest sections: each user gets an htdigest line per realm. */
  digestRealms: string[];
  objects: WorldObject[];
}


/** A per-directory section (<Directory>, <Files>, <Location> and their Match forms) of a tree, by its place: the
 * file, its opening and closing lines, and its opening line as lint's findings name it ("<Directory /srv/www>");
 * or a per-directory file (.htaccess) the directory walk reads, whole (`accessFile`, labelled by its name). */
export interface SectionPlace {
  file: string;
  line: number;
  endLine: number;
  label: string;
  accessFile?: true;
}

/** What a probe request stands for, carried on the scenario's request so that the judge can class its answers and a
 * report can draw the cell matrix: the cell's coordinates and the object the path names. */
export interface RequestProbe {
  /** The cell's id ("vhost|region|client|credentials|method"). */
  cell: string;
  /** "http://(default):80". */
  vhost: string;
  /** The section pattern the path stands for ("<Location /admin>"). */
  region: string;
  /** The client's range ("10.0.0.0/8", "outsider"). */
  clientRange: string;
  credentials: "none" | "valid" | "wrong-password" | "other-realm";
  user: string | null;
  object: ProbeObject;
  /** The per-directory sections the request meets on either side's tree (conf/queries/request-sections.ts): where
   * a line that one version skips can change its answer. Absent where nobody worked it out. */
  sections?: readonly SectionPlace[];
}
