import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEBIAN_PROFILE, OFFICIAL_PROFILE } from "../../../harness/server/httpd-profile.ts";
import { INLINE_BUNDLE_LIMIT, inlineBundle, packBundle, STAGED_MTIME } from "../../../harness/server/site-bundle.ts";
import { STAGE_UNSUPPORTED_EXIT, splitStartPhases, stagingFailure, stagingLines, startScript } from "../../../harness/server/start-script.ts";

// Recorded 2.4.62 output (case d1 and case f of /work/shared/fixtures/real-httpd).
const SYNTAX_ERROR_24 = [
  "AH00526: Syntax error on line 35 of /usr/local/apache2/conf/httpd.conf:",
  "Invalid command 'User', perhaps misspelled or defined by a module not included in the server configuration",
];
const STARTUP_24 = [
  "[Sat Nov 21 22:45:48.215836 2026] [ssl:warn] [pid 1:tid 1] AH01873: Init: Session Cache is not configured [hint: SSLSessionCache]",
  "[Sat Nov 21 22:45:48.217886 2026] [mpm_event:notice] [pid 1:tid 1] AH00489: Apache/2.4.62 (Unix) OpenSSL/3.0.20 configured -- resuming normal operations",
];

describe("startScript", () => {
  it("runs each prepare command between markers, then the config test, then httpd in the foreground", () => {
    expect(startScript(OFFICIAL_PROFILE, ["htpasswd -bc conf/passwd alice secret", "mkdir -p htdocs/private"])).toMatchInlineSnapshot(`
      "rm -f /usr/local/apache2/logs/httpd.pid
      cd /usr/local/apache2
      echo "@@harness prepare-begin 0" >&2
      ( htpasswd -bc conf/passwd alice secret ) >&2 2>&1; printf '\\n%s\\n' "@@harness prepare-end 0 exit=$?" >&2
      echo "@@harness prepare-begin 1" >&2
      ( mkdir -p htdocs/private ) >&2 2>&1; printf '\\n%s\\n' "@@harness prepare-end 1 exit=$?" >&2
      /usr/local/apache2/bin/httpd -t >&2 2>&1; rc=$?
      printf '\\n%s\\n' "@@harness config-test exit=$rc" >&2
      [ "$rc" = 0 ] || exit "$rc"
      exec /usr/local/apache2/bin/httpd -DFOREGROUND"
    `);
  });

  it("runs the profile's pre-start shell first and needs no prepare section", () => {
    expect(startScript(DEBIAN_PROFILE, [])).toMatchInlineSnapshot(`
      ". /etc/apache2/envvars
      mkdir -p "$APACHE_RUN_DIR" "$APACHE_LOCK_DIR" "$APACHE_LOG_DIR" && rm -f "$APACHE_PID_FILE"
      cd /etc/apache2
      /usr/sbin/apache2 -t >&2 2>&1; rc=$?
      printf '\\n%s\\n' "@@harness config-test exit=$rc" >&2
      [ "$rc" = 0 ] || exit "$rc"
      exec /usr/sbin/apache2 -DFOREGROUND"
    `);
  });
});

describe("stagingLines", () => {
  it("extract the bundle given as the first argument, with the archive's modes and mtimes, and drop the argument", async () => {
    const root = mkdtempSync(join(tmpdir(), "staging-"));
    try {
      const bundle = await packBundle([
        { path: "/etc/site/a.conf", content: "Listen 80\n" },
        { path: "/srv/new/secret", content: "s", mode: 0o600 },
      ]);
      const script = [...stagingLines(root), 'echo "left: $#"'].join("\n");
      const run = spawnSync("/bin/sh", ["-c", script, "httpd-upgrade-harness", bundle.toString("base64")], { encoding: "utf8" });
      expect([run.status, run.stdout, run.stderr]).toEqual([0, "left: 0\n", ""]);
      const stat = spawnSync("stat", ["-c", "%n %a %Y", "etc/site/a.conf", "srv/new/secret", "srv/new"], { cwd: root, encoding: "utf8" });
      const mtime = STAGED_MTIME.getTime() / 1000;
      expect(stat.stdout.trim().split("\n")).toEqual([`etc/site/a.conf 644 ${mtime}`, `srv/new/secret 600 ${mtime}`, expect.stringMatching(/^srv\/new 755 \d+$/)]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("extract a gzipped bundle, one that does not fit a command line plain (inlineBundle)", async () => {
    const root = mkdtempSync(join(tmpdir(), "staging-"));
    try {
      // Three hundred small files: their headers and padding alone pass the limit as a plain archive.
      const files = Array.from({ length: 300 }, (_, index) => ({ path: `/etc/site/conf.d/${String(index).padStart(3, "0")}.conf`, content: `# site ${index}\nListen ${8000 + index}\n` }));
      const bundle = await packBundle(files);
      expect(bundle.toString("base64").length).toBeGreaterThan(INLINE_BUNDLE_LIMIT);
      expect(inlineBundle(bundle, { gzip: false })).toBeNull();
      const inline = inlineBundle(bundle)!;
      expect(inline.gzip).toBe(true);
      expect(inline.base64.length).toBeLessThanOrEqual(INLINE_BUNDLE_LIMIT);
      const run = spawnSync("/bin/sh", ["-c", [...stagingLines(root, true), 'echo "left: $#"'].join("\n"), "httpd-upgrade-harness", inline.base64], { encoding: "utf8" });
      expect([run.status, run.stdout, run.stderr]).toEqual([0, "left: 0\n", ""]);
      expect(readFileSync(join(root, "etc/site/conf.d/299.conf"), "utf8")).toBe("# site 299\nListen 8299\n");
      const small = await packBundle(files.slice(0, 2));
      expect(inlineBundle(small)).toEqual({ base64: small.toString("base64"), gzip: false });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("stop the script with their own status and marker where base64 or tar is missing, or the archive is bad", () => {
    const missing = spawnSync("/bin/sh", ["-c", stagingLines("/nonexistent").join("\n"), "x", ""], { encoding: "utf8", env: { PATH: "/nonexistent" } });
    expect([missing.status, stagingFailure(missing.stderr.trim().split("\n"))]).toEqual([STAGE_UNSUPPORTED_EXIT, "unsupported"]);
    // A gzipped bundle where gzip is missing (a directory holding base64 and tar only).
    const bin = mkdtempSync(join(tmpdir(), "no-gzip-"));
    try {
      for (const tool of ["base64", "tar"]) symlinkSync(spawnSync("/bin/sh", ["-c", `command -v ${tool}`], { encoding: "utf8" }).stdout.trim(), join(bin, tool));
      const script = stagingLines("/nonexistent", true).join("\n");
      const noGzip = spawnSync("/bin/sh", ["-c", script, "x", ""], { encoding: "utf8", env: { PATH: bin } });
      expect([noGzip.status, stagingFailure(noGzip.stderr.trim().split("\n"))]).toEqual([STAGE_UNSUPPORTED_EXIT, "unsupported"]);
      expect(spawnSync("/bin/sh", ["-c", stagingLines("/nonexistent").join("\n"), "x", ""], { encoding: "utf8", env: { PATH: bin } }).stderr).not.toContain("stage-unsupported");
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
    const bad = spawnSync("/bin/sh", ["-c", stagingLines(tmpdir()).join("\n"), "x", Buffer.from("not a tar archive").toString("base64")], { encoding: "utf8" });
    expect(bad.status).toBe(STAGE_UNSUPPORTED_EXIT + 1);
    expect(stagingFailure(bad.stderr.trim().split("\n"))).toBe("failed");
  });
});

describe("splitStartPhases", () => {
  it("splits prepare outputs with their exit codes, the config test, and where the error log starts", () => {
    const stderr = [
      "@@harness prepare-begin 0",
      "Adding password for user alice",
      "@@harness prepare-end 0 exit=0",
      "@@harness prepare-begin 1",
      "sh: 1: htdbm: not found",
      "@@harness prepare-end 1 exit=127",
      "Syntax OK",
      "@@harness config-test exit=0",
      ...STARTUP_24,
    ];
    expect(splitStartPhases(stderr)).toEqual({
      world: [],
      prepare: [
        { exitCode: 0, output: ["Adding password for user alice"] },
        { exitCode: 127, output: ["sh: 1: htdbm: not found"] },
      ],
      configTest: { exitCode: 0, output: ["Syntax OK"] },
      errorLogStart: 8,
    });
    expect(stderr.slice(splitStartPhases(stderr).errorLogStart)).toEqual(STARTUP_24);
  });

  it("keeps a failed config test's output and exit code, with nothing after it", () => {
    const stderr = [...SYNTAX_ERROR_24, "@@harness config-test exit=1"];
    expect(splitStartPhases(stderr)).toEqual({
      world: [],
      prepare: [],
      configTest: { exitCode: 1, output: SYNTAX_ERROR_24 },
      errorLogStart: 3,
    });
  });

  it("says configTest null while the config-test marker has not arrived yet", () => {
    expect(splitStartPhases(["@@harness prepare-begin 0", "Adding password for user alice", "@@harness prepare-end 0 exit=0", "Syntax OK"])).toEqual({
      world: [],
      prepare: [{ exitCode: 0, output: ["Adding password for user alice"] }],
      configTest: null,
      errorLogStart: 4,
    });
    expect(splitStartPhases([])).toEqual({ world: [], prepare: [], configTest: null, errorLogStart: 0 });
  });

  it("gives a prepare command with no output an empty list, and does not count its lines as config-test output", () => {
    expect(splitStartPhases(["@@harness prepare-begin 0", "@@harness prepare-end 0 exit=0", "@@harness config-test exit=0"])).toEqual({
      world: [],
      prepare: [{ exitCode: 0, output: [] }],
      configTest: { exitCode: 0, output: [] },
      errorLogStart: 3,
    });
  });

  it("keeps what the setup says of the probe world apart from the config test's output", () => {
    const stderr = ["@@harness world-missing /srv/www/probe.cgi", "Syntax OK", "@@harness config-test exit=0", "[notice] started"];
    expect(splitStartPhases(stderr)).toEqual({ world: ["@@harness world-missing /srv/www/probe.cgi"], prepare: [], configTest: { exitCode: 0, output: ["Syntax OK"] }, errorLogStart: 3 });
  });

  it("does not take a marker-like text inside a line for a marker", () => {
    const stderr = ["echo @@harness config-test exit=0", "Syntax OK", "@@harness config-test exit=0"];
    expect(splitStartPhases(stderr).configTest).toEqual({ exitCode: 0, output: ["echo @@harness config-test exit=0", "Syntax OK"] });
  });
});

/** Runs the script with /bin/sh against a stub httpd (no container): `-t` prints the given output and exits with
 * the given status; otherwise it logs the 2.4 startup lines and exits. Returns stderr as lines. */
function runScript(prepare: string[], configTest: { output: string[]; exitCode: number }): string[] {
  const root = mkdtempSync(join(tmpdir(), "start-script-"));
  try {
    const stub = join(root, "httpd");
    writeFileSync(
      stub,
      [
        "#!/bin/sh",
        `if [ "$1" = "-t" ]; then printf '%s\\n' ${configTest.output.map(quote).join(" ")}; exit ${configTest.exitCode}; fi`,
        `printf '%s\\n' ${STARTUP_24.map(quote).join(" ")} >&2`,
      ].join("\n"),
      { mode: 0o755 },
    );
    const profile = { ...OFFICIAL_PROFILE, preStart: "true", serverRoot: root, binary: stub };
    const result = spawnSync("/bin/sh", ["-c", startScript(profile, prepare)], { encoding: "utf8", cwd: root });
    return result.stderr.split("\n").slice(0, -1);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function quote(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}

describe("startScript run by /bin/sh, read back by splitStartPhases", () => {
  it("yields each phase's output on stderr, in order", () => {
    const stderr = runScript(["echo prepared", "echo failing >&2; exit 3"], { output: ["Syntax OK"], exitCode: 0 });
    expect(stderr).toEqual([
      "@@harness prepare-begin 0",
      "prepared",
      "",
      "@@harness prepare-end 0 exit=0",
      "@@harness prepare-begin 1",
      "failing",
      "",
      "@@harness prepare-end 1 exit=3",
      "Syntax OK",
      "",
      "@@harness config-test exit=0",
      ...STARTUP_24,
    ]);
    expect(splitStartPhases(stderr)).toEqual({
      world: [],
      prepare: [
        { exitCode: 0, output: ["prepared"] },
        { exitCode: 3, output: ["failing"] },
      ],
      configTest: { exitCode: 0, output: ["Syntax OK"] },
      errorLogStart: 11,
    });
  });

  it("stops after a failed config test without starting httpd", () => {
    const stderr = runScript([], { output: SYNTAX_ERROR_24, exitCode: 1 });
    expect(splitStartPhases(stderr)).toEqual({ world: [], prepare: [], configTest: { exitCode: 1, output: SYNTAX_ERROR_24 }, errorLogStart: 4 });
    expect(stderr).toHaveLength(4);
  });

  // Regression: a command whose output lacks a final newline (`printf secret`) used to glue the marker to its
  // last line, so that phase never ended and the config test's output was swallowed into it.
  it("ends a prepare phase whose command's output has no final newline", () => {
    const stderr = runScript(["printf secret"], { output: ["Syntax OK"], exitCode: 0 });
    expect(splitStartPhases(stderr)).toEqual({
      world: [],
      prepare: [{ exitCode: 0, output: ["secret"] }],
      configTest: { exitCode: 0, output: ["Syntax OK"] },
      errorLogStart: 6,
    });
  });
});
