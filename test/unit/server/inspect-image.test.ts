import { describe, expect, it } from "vitest";
import { HarnessError } from "../../../harness/errors.ts";
import { DEBIAN_PROFILE, OFFICIAL_PROFILE } from "../../../harness/server/httpd-profile.ts";
import { inspectionScript, parseInspection } from "../../../harness/server/inspect-image.ts";
import { httpdVersion } from "../../../harness/versions/httpd-version.ts";
import { VERSION_OUTPUT, stockConfig } from "../../fixtures/observations/recorded.ts";

// What `ls /usr/local/apache2/modules` prints in the recorded 2.4.62 image (a part): .so files and the
// httpd.exp export list make install puts next to them.
const MODULES_LS_24 = ["httpd.exp", "mod_access_compat.so", "mod_authz_core.so", "mod_mpm_event.so", "mod_status.so", "mod_unixd.so"];
const MODULES_LS_22 = ["httpd.exp", "mod_authz_host.so", "mod_disk_cache.so", "mod_status.so"];

/** The probe's output as inspectImage joins it: stdout lines, a newline, stderr lines. */
/** `httpd -l` of the official 2.4 image; 2.2.34 adds prefork.c, Debian's apache2 mod_unixd.c and others. */
const COMPILED_24 = ["Compiled in modules:", "  core.c", "  mod_so.c", "  http_core.c"];

function probeOutput(profile: string, version: string, modules: string[], stock: string, stderr = "", compiled = COMPILED_24): string {
  return (
    [`@@harness profile ${profile}`, version, "@@harness compiled", ...compiled, "@@harness modules", ...modules, "@@harness stock", stock].join("\n") +
    "\n" +
    stderr
  );
}

function caught(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("did not throw");
}

describe("parseInspection", () => {
  it("reads the official layout, the 2.4 version, the .so files and the stock config of a 2.4 image", () => {
    const stock = stockConfig("2.4");
    const inspection = parseInspection("httpd:2.4.62", probeOutput("official", VERSION_OUTPUT["2.4"], MODULES_LS_24, stock));
    expect(inspection).toEqual({
      image: "httpd:2.4.62",
      profile: OFFICIAL_PROFILE,
      version: httpdVersion("2.4.62"),
      modules: new Set(["mod_access_compat.so", "mod_authz_core.so", "mod_mpm_event.so", "mod_status.so", "mod_unixd.so"]),
      builtinModules: new Set(["so"]),
      stockConfig: `${stock}\n`,
      source: "inspected",
    });
  });

  it("places a 2.2.34 image in the 2.2 family", () => {
    const inspection = parseInspection("httpd:2.2.34", probeOutput("official", VERSION_OUTPUT["2.2"], MODULES_LS_22, "# stock"));
    expect({ version: inspection.version.text, family: inspection.version.family, modules: inspection.modules }).toEqual({
      version: "2.2.34",
      family: "2.2",
      modules: new Set(["mod_authz_host.so", "mod_disk_cache.so", "mod_status.so"]),
    });
  });

  it("reads the modules compiled into httpd: 2.2's static prefork MPM, Debian's static mod_unixd", () => {
    const compiled22 = ["Compiled in modules:", "  core.c", "  prefork.c", "  http_core.c", "  mod_so.c"];
    const debian = ["Compiled in modules:", "  core.c", "  mod_so.c", "  mod_watchdog.c", "  http_core.c", "  mod_log_config.c", "  mod_logio.c", "  mod_version.c", "  mod_unixd.c"];
    expect(parseInspection("httpd:2.2.34", probeOutput("official", VERSION_OUTPUT["2.2"], [], "", "", compiled22)).builtinModules).toEqual(new Set(["mpm_prefork", "so"]));
    expect(parseInspection("debian", probeOutput("debian", "Server version: Apache/2.4.62 (Debian)", [], "", "", debian)).builtinModules).toEqual(
      new Set(["so", "watchdog", "log_config", "logio", "version", "unixd"]),
    );
  });

  it("reads Debian's layout and version line", () => {
    const inspection = parseInspection("debian-apache2", probeOutput("debian", "Server version: Apache/2.4.62 (Debian)\nServer built:   2024-07-17T18:57:26", [], ""));
    expect([inspection.profile, inspection.version.text, inspection.version.family]).toEqual([DEBIAN_PROFILE, "2.4.62", "2.4"]);
  });

  it("keeps the package revision of a distribution's version line as the build", () => {
    const inspection = parseInspection("debian-apache2", probeOutput("debian", "Server version: Apache/2.4.62-1~deb11u1 (Debian)", [], ""));
    expect(inspection.version).toEqual({ text: "2.4.62", major: 2, minor: 4, patch: 62, family: "2.4", build: "-1~deb11u1" });
  });

  it("refuses an image with no httpd where a known layout keeps it: HARNESS_IMAGE_UNSUPPORTED", () => {
    const error = caught(() => parseInspection("alpine:3.20", "@@harness none\n"));
    expect(error).toBeInstanceOf(HarnessError);
    expect(error).toMatchObject({
      code: "HARNESS_IMAGE_UNSUPPORTED",
      message: "The image alpine:3.20 has no httpd where the harness looks for one.",
      hint: "Supported layouts: official (/usr/local/apache2/bin/httpd), debian (/usr/sbin/apache2).",
    });
  });

  it("refuses an httpd 2.0 image: HARNESS_IMAGE_UNSUPPORTED naming the version", () => {
    const error = caught(() => parseInspection("httpd:2.0.65", probeOutput("official", "Server version: Apache/2.0.65 (Unix)", [], "")));
    expect(error).toMatchObject({
      code: "HARNESS_IMAGE_UNSUPPORTED",
      message: "The image httpd:2.0.65 runs an httpd the harness cannot place (version Apache/2.0.65).",
      hint: "The harness compares httpd 2.2.x and 2.4.x.",
    });
  });

  it("refuses an image whose httpd prints no version: HARNESS_IMAGE_UNSUPPORTED with version unknown", () => {
    const error = caught(() => parseInspection("broken", probeOutput("official", "httpd: error while loading shared libraries", [], "")));
    expect(error).toMatchObject({ code: "HARNESS_IMAGE_UNSUPPORTED", message: "The image broken runs an httpd the harness cannot place (version unknown)." });
  });
});

describe("inspectionScript", () => {
  it("probes each layout in order and prints the markers parseInspection reads", () => {
    expect(inspectionScript()).toMatchInlineSnapshot(`"if [ -x /usr/local/apache2/bin/httpd ]; then echo "@@harness profile official";  /usr/local/apache2/bin/httpd -v; echo "@@harness compiled"; /usr/local/apache2/bin/httpd -l; echo "@@harness modules"; ls /usr/local/apache2/modules; echo "@@harness stock"; cat /usr/local/apache2/conf/httpd.conf; exit 0; fi; if [ -x /usr/sbin/apache2 ]; then echo "@@harness profile debian"; . /etc/apache2/envvars; /usr/sbin/apache2 -v; echo "@@harness compiled"; /usr/sbin/apache2 -l; echo "@@harness modules"; ls /usr/lib/apache2/modules; echo "@@harness stock"; cat /etc/apache2/apache2.conf; exit 0; fi; echo "@@harness none"; exit 0"`);
  });
});
