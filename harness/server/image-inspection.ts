import type { HttpdVersion } from "../versions/httpd-version.ts";
import type { HttpdProfile } from "./httpd-profile.ts";

/** What an image holds, read once per image and run: its layout, the httpd version, its modules and its
 * stock configuration. */
export interface ImageInspection {
  image: string;
  profile: HttpdProfile;
  /** From `httpd -v`; its family selects expectations, module map and log dialect. */
  version: HttpdVersion;
  modules: ReadonlySet<string>;
  /** Logical names of modules compiled into httpd itself. */
  builtinModules: ReadonlySet<string>;
  /** The image's own main config; null when only the layout's defaults are known. */
  stockConfig: string | null;
  /** Where these facts come from: the image itself now, the last inspection's cache, or the official layout's
   * defaults for a version (plan without an engine). */
  source: "inspected" | "cache" | "defaults";
}
