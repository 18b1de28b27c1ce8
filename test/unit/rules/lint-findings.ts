// LintFinding values for the lint reporters' and outcome's tests, with only what a test changes spelled out.
import type { LintFinding } from "../../../harness/rules/finding.ts";
import type { LintedTree, TreeFinding } from "../../../harness/rules/lint-outcome.ts";

export function finding(overrides: Partial<LintFinding> = {}): LintFinding {
  return {
    rule: "R9",
    severity: "blocking",
    security: false,
    seed: ["R9"],
    file: "apache2.conf",
    line: 3,
    column: 1,
    endLine: 3,
    endColumn: 25,
    directive: "LockFile logs/accept.lock",
    message: "2.4 refuses to start: Invalid command 'LockFile'",
    fix: null,
    fingerprint: "0123456789abcdef0123456789abcdef",
    sections: [],
    includeChain: [],
    related: [],
    ...overrides,
  };
}

export function treeFinding(overrides: Partial<TreeFinding> = {}): TreeFinding {
  return { ...finding(overrides), tree: overrides.tree ?? "configs/a" };
}

export function lintedTree(overrides: Partial<LintedTree> = {}): LintedTree {
  return { path: "configs/a", root: "/srv/repo/configs/a", layout: "debian", targetModules: "debian", files: ["apache2.conf"], ...overrides };
}
