import { describe, expect, test } from "vitest";
import { evaluateEnvvars, expandWord } from "../../../harness/conf/envvars.ts";

// Written in the forms Debian's envvars use (squeeze-era and bookworm-era), not copied from them.
const squeezeStyle = `# defaults for apache2ctl
unset HOME

if [ "\${APACHE_CONFDIR##/etc/apache2-}" != "\${APACHE_CONFDIR}" ] ; then
\tSUFFIX="-\${APACHE_CONFDIR##/etc/apache2-}"
else
\tSUFFIX=
fi

export APACHE_RUN_USER=www-data
export APACHE_RUN_GROUP=www-data
export APACHE_PID_FILE=/var/run/apache2$SUFFIX.pid
export APACHE_RUN_DIR=/var/run/apache2$SUFFIX
export APACHE_LOCK_DIR=/var/lock/apache2$SUFFIX
export APACHE_LOG_DIR=/var/log/apache2$SUFFIX

export LANG=C
#. /etc/default/locale
export LANG
#export APACHE_LYNX='www-browser -dump'
`;

describe("evaluateEnvvars", () => {
  test("the default instance: no suffix, exported values only", () => {
    const result = evaluateEnvvars(squeezeStyle, "envvars", { APACHE_CONFDIR: "/etc/apache2" });
    expect(result.environment).toEqual({
      APACHE_CONFDIR: "/etc/apache2",
      APACHE_RUN_USER: "www-data",
      APACHE_RUN_GROUP: "www-data",
      APACHE_PID_FILE: "/var/run/apache2.pid",
      APACHE_RUN_DIR: "/var/run/apache2",
      APACHE_LOCK_DIR: "/var/lock/apache2",
      APACHE_LOG_DIR: "/var/log/apache2",
      LANG: "C",
    });
    expect(result.problems).toEqual([]);
  });

  test("a second instance (/etc/apache2-two) gets the -two suffix through ${A##prefix}", () => {
    const result = evaluateEnvvars(squeezeStyle, "envvars", { APACHE_CONFDIR: "/etc/apache2-two" });
    expect(result.environment.APACHE_PID_FILE).toBe("/var/run/apache2-two.pid");
    expect(result.environment.APACHE_LOG_DIR).toBe("/var/log/apache2-two");
  });

  test("lines that are commands are not run and leave a warning with their line", () => {
    const result = evaluateEnvvars(". /etc/default/locale\nulimit -n 65536\nA=$(hostname)\nexport B='x y'\n", "envvars", {});
    expect(result.environment).toEqual({ B: "x y" });
    expect(result.problems.map((p) => [p.severity, p.line])).toEqual([
      ["warning", 1],
      ["warning", 2],
      ["warning", 3],
    ]);
  });

  test("unexported assignments do not reach httpd unless exported later", () => {
    const result = evaluateEnvvars("A=1\nB=2\nexport B\nC=3 ; export C\n", "envvars", {});
    expect(result.environment).toEqual({ B: "2", C: "3" });
  });
});

describe("expandWord", () => {
  const values = new Map([
    ["A", "/etc/apache2-x"],
    ["E", ""],
  ]);
  test.each([
    ["${A##/etc/apache2-}", "x"],
    ["${A#*/}", "etc/apache2-x"],
    ["${A##*/}", "apache2-x"],
    ["${A%-*}", "/etc/apache2"],
    ["${A%%/*}", ""],
    ["${E:-d}", "d"],
    ["${E-d}", ""],
    ["${U-d}", "d"],
    ['"$A/y"', "/etc/apache2-x/y"],
    ["'$A'", "$A"],
  ])("%s → %s", (word, expected) => {
    expect(expandWord(word, values)).toBe(expected);
  });
});
