import { describe, expect, it } from "vitest";
import { PREPARE_TOOLS, commandPrograms, prepareToolProblems } from "../../../harness/scenario/prepare-tools.ts";

function names(command: string): string[] {
  return commandPrograms(command).map((use) => use.name);
}

describe("commandPrograms", () => {
  it("splits lists and pipelines, skipping assignments, redirections and their targets", () => {
    expect(names("FOO=bar htpasswd -bc p a b 2>&1 >/dev/null && chmod 0644 p; cat p | head -1 || echo no")).toEqual([
      "htpasswd",
      "chmod",
      "cat",
      "head",
      "echo",
    ]);
    expect(names("i=0; while [ $i -lt 3 ]; do head -c 9 /dev/zero | tr '\\0' b; i=$((i+1)); done > f")).toEqual(["[", "head", "tr"]);
  });

  it("reads if, for and case, skipping word lists and patterns", () => {
    expect(names("if test -f a; then rm a; elif [ -d b ]; then rmdir b; else :; fi")).toEqual(["test", "rm", "[", "rmdir", ":"]);
    expect(names("for p in /proc/[0-9]* ls; do echo $p; done")).toEqual(["echo"]);
    expect(names("case $x in a|b) mkdir a;; (*) touch b;; esac; cat c")).toEqual(["mkdir", "touch", "cat"]);
  });

  it("finds commands in substitutions (also inside double quotes), subshells, groups and sh -c scripts", () => {
    expect(names('echo "$(openssl rand 4)" `perl -e 1`')).toEqual(["openssl", "perl", "echo"]);
    expect(names("(cd /x && wget y) & { ls; }")).toEqual(["cd", "wget", "ls"]);
    expect(names("/bin/sh -ec 'mkdir -p /a && curl -o /a/f http://h/'")).toEqual(["sh", "mkdir", "curl"]);
  });

  it("skips here-document bodies and comments, and names a path by its last part", () => {
    expect(names("cat > f <<EOF\nopenssl is only text here\nEOF\nchmod 600 f # openssl")).toEqual(["cat", "chmod"]);
    expect(names("{{server.root}}/bin/htpasswd -nb a b")).toEqual(["htpasswd"]);
  });

  it("gives the index of each program's word in the command text", () => {
    const command = "mkdir -p d && sh -c 'cd d; openssl x'";
    expect(commandPrograms(command).map((use) => [use.name, command.slice(use.index, use.index + use.name.length)])).toEqual([
      ["mkdir", "mkdir"],
      ["sh", "sh"],
      ["cd", "cd"],
      ["openssl", "openssl"],
    ]);
  });
});

describe("prepareToolProblems", () => {
  it("accepts the catalogue's kind of command", () => {
    expect(prepareToolProblems("htpasswd -bc {{server.root}}/conf/passwd alice secret && chmod 644 {{server.root}}/conf/passwd", ["2.2", "2.4"])).toEqual([]);
    expect(prepareToolProblems('printf "alice admins\\n" > /tmp/g.txt', ["2.2", "2.4"])).toEqual([]);
  });

  it("names the program, with a hint: the certificate factory for openssl, server.files otherwise", () => {
    const [openssl] = prepareToolProblems("openssl req -x509", ["2.2"]);
    expect(openssl).toMatchObject({ name: "openssl", index: 0, problem: 'runs "openssl", which is not a program every httpd image has' });
    expect(openssl?.hint).toContain("server.tls.subject");
    expect(prepareToolProblems("python3 -c 1", ["2.4"])[0]?.hint).toContain("server.files");
  });

  it("rejects what cannot be checked: a program named by an expansion, eval", () => {
    expect(prepareToolProblems("$CMD x", ["2.4"])[0]?.problem).toContain("named by an expansion");
    expect(prepareToolProblems("eval 'openssl x'", ["2.4"]).map((problem) => problem.name)).toEqual(["eval"]);
  });

  it("refuses nesting too deep to read rather than letting it through", () => {
    const deep = `${"echo $(".repeat(12)}openssl x${")".repeat(12)}`;
    expect(prepareToolProblems(deep, ["2.4"]).map((problem) => problem.problem)).toEqual([
      "nests substitutions or sh -c scripts too deep to check",
    ]);
  });

  it("checks version-specific tools against the versions a command runs on", () => {
    expect(PREPARE_TOOLS.fcgistarter?.families).toEqual(["2.4"]);
    expect(prepareToolProblems("fcgistarter -c x -p 1", ["2.4"])).toEqual([]);
    expect(prepareToolProblems("fcgistarter -c x -p 1", ["2.2", "2.4"])[0]?.problem).toContain("only httpd 2.4's image has");
  });

  it("says why every tool is allowed", () => {
    for (const [name, tool] of Object.entries(PREPARE_TOOLS)) {
      expect(tool.why.length, name).toBeGreaterThan(3);
      expect(tool.families.length, name).toBeGreaterThan(0);
    }
  });
});
