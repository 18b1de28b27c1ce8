// The images the harness builds itself, from Debian's packages only (no registry is reachable here).
// Each is tagged with a hash of its recipe files (and its parent's tag), so it is rebuilt only when they change.
import { fileURLToPath } from "node:url";

export const DOCKER_DIR = fileURLToPath(new URL("../../docker/", import.meta.url));

export interface ImageRecipe {
  /** Stable id used on the command line and in logs. */
  id: "base" | "httpd-2.4" | "httpd-2.4-debian" | "tools";
  repository: string;
  /** Directory under docker/ whose files make up the recipe. */
  directory: string;
  /** How it is built: a script (the debootstrap base) or a Dockerfile on top of `parent`. */
  build: { kind: "script"; script: string } | { kind: "dockerfile"; parent: ImageRecipe["id"] };
  description: string;
}

export const IMAGE_RECIPES: readonly ImageRecipe[] = [
  {
    id: "base",
    repository: "harness-base",
    directory: "base",
    build: { kind: "script", script: "build-base.sh" },
    description: "Debian bookworm minbase from debootstrap, imported with docker import",
  },
  {
    id: "httpd-2.4",
    repository: "harness-httpd",
    directory: "httpd-2.4",
    build: { kind: "dockerfile", parent: "base" },
    description: "httpd 2.4 with the official images' layout, built from Debian's apache2 source package",
  },
  {
    id: "httpd-2.4-debian",
    repository: "harness-httpd-debian",
    directory: "httpd-2.4-debian",
    build: { kind: "dockerfile", parent: "base" },
    description: "Debian's binary apache2 package (/etc/apache2 layout), for the Debian profile's tests",
  },
  {
    id: "tools",
    repository: "harness-tools",
    directory: "tools",
    build: { kind: "dockerfile", parent: "base" },
    description: "curl, openssl and python3 for client containers and helper origins",
  },
];
