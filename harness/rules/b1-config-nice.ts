// B1: each installation records its configure line in build/config.nice under the server root, so 2.2's build
// options can be carried to a 2.4 build. Informational: nothing in a configuration, and the two files differ
// as two builds do (build-config-nice-present).
import type { Rule } from "./rule.ts";

export const B1: Rule = {
  id: "B1",
  seed: ["B1"],
  title: "build/config.nice records the configure line of each installation",
  severity: "expected",
  recognise: (evidence) =>
    evidence.field === "exec" && /config\.nice|"\.\/configure"|--enable-mods-shared/.test(`${evidence.baseline ?? ""}\n${evidence.candidate ?? ""}`)
      ? { summary: "the two installations were configured differently (build/config.nice)" }
      : null,
  fix: "Reuse the 2.2 configure line from build/config.nice when building 2.4 (most options carry over).",
  help: "Guide, build: the configure command line is recorded in build/config.nice in the installed server directory.",
};
