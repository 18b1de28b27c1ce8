// The images the harness builds itself, from Debian's packages only (no registry is reachable here).
// Each is tagged with a hash of its recipe files (and its parent's tag), so it is rebuilt only when they change.
import { repoPath } from "../repo-paths.ts";

export const DOCKER_DIR = repoPath("docker/");

export interface ImageRecipe {
  /** Stable id used on the command line and in logs. */
  id: "base" | "httpd-2.4" | "httpd-2.4.67" | "httpd-2.4-debian" | "tools" | "harness";
  repository: string;
  /** Directory under docker/ whose files make up the recipe. */
  directory: string;
  /** How it is built: a script (the debootstrap base) or a Dockerfile on top of `parent`. */
  build: { kind: "script"; script: string } | { kind: "dockerfile"; parent: ImageRecipe["id"] };
  /** Build args for the Dockerfile (besides BASE_IMAGE); part of the hash, so recipes sharing a directory differ. */
  buildArgs?: Readonly<Record<string, string>>;
  /** Put before the hash in the tag, so the tag says what is inside (e.g. "2.4.68-"). */
  tagPrefix?: string;
  /** An httpd to test: what `recipe:ID` may name (the base, the tools and the harness hold none). */
  holdsHttpd?: true;
  /** Files and folders of the repository itself (relative to its root; a folder is taken whole, symlinks as links),
   * put into the build context under `repository/` and hashed into the tag with the recipe's own files: the image
   * of the harness is the checkout it was built from, and a changed source or lockfile gives a new tag. */
  repositoryPaths?: readonly string[];
  /** Files of the machine that builds the image (context name to path there), put into the build context and never
   * into the hash, so a recipe has one tag on every machine; one the machine does not have goes in empty. */
  buildMachineFiles?: Readonly<Record<string, string>>;
  /** Built only when named (`images --build harness`), never by `images --build` alone, set-up or a run: nothing
   * the harness runs needs it. */
  buildOnlyWhenNamed?: true;
  description: string;
}

/**
 * httpd with the official images' layout, built by docker/httpd-2.4 from a Debian apache2 source package:
 * its Debian version and the suite whose deb-src index carries it are build args, and the tag starts with
 * the upstream version, so each patch level is its own recipe over the same Dockerfile.
 */
function httpdFromDebianSource(id: ImageRecipe["id"], source: { debianVersion: string; suite: string }): ImageRecipe {
  const upstream = source.debianVersion.replace(/-[^-]*$/, "");
  return {
    id,
    repository: "harness-httpd",
    directory: "httpd-2.4",
    build: { kind: "dockerfile", parent: "base" },
    buildArgs: { APACHE2_DEBIAN_VERSION: source.debianVersion, APACHE2_SOURCE_SUITE: source.suite },
    tagPrefix: `${upstream}-`,
    holdsHttpd: true,
    description: `httpd ${upstream} with the official images' layout, built from Debian's apache2 ${source.debianVersion} source package (${source.suite})`,
  };
}

export const IMAGE_RECIPES: readonly ImageRecipe[] = [
  {
    id: "base",
    repository: "harness-base",
    directory: "base",
    build: { kind: "script", script: "build-base.sh" },
    description: "Debian bookworm minbase from debootstrap, imported with docker import",
  },
  // The newest security version's source can be missing from the mirror (404); this one downloads.
  httpdFromDebianSource("httpd-2.4", { debianVersion: "2.4.68-1~deb12u1", suite: "bookworm" }),
  // The patch level before the candidate: mod_include changed in 2.4.68 ("Don't print any of if/elsif/else
  // content when a conditional evaluation returns an error"), so scenarios whose behaviour differs between
  // 2.4 patch levels are checked on both. Its .dsc is missing from the mirror: the Dockerfile builds the
  // upstream tarball (see docker/httpd-2.4/Dockerfile).
  {
    ...httpdFromDebianSource("httpd-2.4.67", { debianVersion: "2.4.67-1~deb11u3", suite: "bullseye-security" }),
    description:
      "httpd 2.4.67, the patch level before the candidate, built from Debian's apache2 2.4.67-1~deb11u3 source (bullseye-security): " +
      "mod_include changed in 2.4.68 (if/elsif/else content is no longer printed when a conditional evaluation returns an error), " +
      "so scenarios whose behaviour differs between 2.4 patch levels are checked on both",
  },
  {
    id: "httpd-2.4-debian",
    repository: "harness-httpd-debian",
    directory: "httpd-2.4-debian",
    build: { kind: "dockerfile", parent: "base" },
    holdsHttpd: true,
    description: "Debian's binary apache2 package (/etc/apache2 layout), for the Debian profile's tests",
  },
  {
    id: "tools",
    repository: "harness-tools",
    directory: "tools",
    build: { kind: "dockerfile", parent: "base" },
    description: "curl, openssl and python3 for client containers and helper origins",
  },
  {
    id: "harness",
    repository: "httpd-upgrade-harness",
    directory: "harness",
    build: { kind: "dockerfile", parent: "base" },
    // What the CLI reads at run time: its sources and dependencies, the recipes it builds images from on the
    // engine it is given, the seed rows, the catalogue, the schemas and the sample configs.
    repositoryPaths: ["package.json", "package-lock.json", "bin", "harness", "docker", "spec", "scenarios", "schema", "configs"],
    // npm ci in the build trusts what this machine trusts, as npm here does: behind a TLS-inspecting proxy the
    // registry's certificate is signed by a CA that only the machine's bundle has. Only the build stage that runs
    // npm sees it; the image does not keep it.
    buildMachineFiles: { "build-machine-ca-certificates.crt": "/etc/ssl/certs/ca-certificates.crt" },
    buildOnlyWhenNamed: true,
    description: "the harness itself (Debian's Node.js, the repository, npm ci --omit=dev, the docker CLI), for clusters and CI",
  },
];

/** Wherever an image is named (--baseline, --candidate, a matrix file, bisect --images), `recipe:ID` names one
 * of the httpd images above: built here when missing, like every recipe. */
export const RECIPE_PREFIX = "recipe:";

export type RecipeName = { recipe: ImageRecipe } | { error: string } | null;

/** The recipe a `recipe:ID` name names; null for any other image name; an error for an unknown id or one that
 * holds no httpd (the base, the tools, the harness). */
export function recipeNamed(image: string): RecipeName {
  if (!image.startsWith(RECIPE_PREFIX)) return null;
  const id = image.slice(RECIPE_PREFIX.length);
  const httpd = IMAGE_RECIPES.filter((recipe) => recipe.holdsHttpd);
  const recipe = httpd.find((r) => r.id === id);
  if (recipe) return { recipe };
  return { error: `${JSON.stringify(image)} names no httpd recipe of the harness; known: ${httpd.map((r) => `${RECIPE_PREFIX}${r.id}`).join(", ")}` };
}
