import { describe, expect, it } from "vitest";
import { environmentScript, stagingScript } from "../../../harness/server/staged-httpd.ts";
import { officialDefaults } from "../../../harness/server/official-defaults.ts";
import { DEBIAN_PROFILE } from "../../../harness/server/httpd-profile.ts";
import { httpdVersion } from "../../../harness/versions/httpd-version.ts";

const official = officialDefaults("httpd:2.4.68", httpdVersion("2.4.68"));
const debian = { ...official, profile: DEBIAN_PROFILE };

describe("stagingScript", () => {
  it("runs the image's environment, the plan's exports and setup steps, then says so and waits; httpd is never started", () => {
    const script = stagingScript(debian, { args: ["-f", "/etc/apache2/apache2.conf"], environment: { APACHE_LOG_DIR: "/var/log/apache2 x" }, setup: ["mkdir -p /srv/www"] });
    const lines = script.split("\n");
    expect(lines[0]).toBe(". /etc/apache2/envvars");
    expect(lines).toContain("export APACHE_LOG_DIR='/var/log/apache2 x'");
    expect(lines.indexOf("mkdir -p /srv/www")).toBeLessThan(lines.indexOf('echo "@@harness staged"'));
    expect(lines.at(-1)).toBe("exec sleep 3600");
    expect(script).not.toMatch(/apache2 -|httpd -/);
  });

  it("each question starts from the same environment: the image's, then the plan's", () => {
    expect(environmentScript(official, { A: "1" })).toEqual(["export A=1"]);
    expect(environmentScript(debian, {})).toEqual([". /etc/apache2/envvars"]);
  });
});
