// S14: 2.4 runs a piped log program directly; 2.2 ran it through /bin/sh -c. A command that needs the shell
// (redirections, pipes, ;, &&, $VARS, quotes, globs) gets its words as arguments on 2.4: "|/bin/cat >> file"
// starts but loses every line (AH00106, piped-log-absolute-program), and a program without a path is not looked
// up on PATH: "|cat >> file" stops 2.4 from starting (AH00104 + AH00015, piped-log-shell-syntax). "|$command"
// asks for the shell explicitly and works on both (piped-log-dollar-shell-prefix).
import { detection, named } from "./detection.ts";
import type { Detection, Rule } from "./rule.ts";

const SHELL_SYNTAX = /[|;&<>`$(){}*?~'"\\]|^\s*\w+=/;

/** What 2.4 makes of a piped log target ("|command"), or null when it is not piped or asks for the shell. */
export function pipedLogProblem(target: string): { command: string; relative: boolean; shell: boolean } | null {
  if (!target.startsWith("|") || target.startsWith("|$") || target.startsWith("||")) return null;
  const command = target.slice(1).trim();
  const program = command.split(/\s+/)[0] ?? "";
  const relative = program !== "" && !program.startsWith("/");
  const shell = SHELL_SYNTAX.test(command);
  return relative || shell ? { command, relative, shell } : null;
}

export const S14: Rule = {
  id: "S14",
  seed: ["S14"],
  title: "piped log commands run without /bin/sh on 2.4",
  severity: "behaviour",
  detect: (context) => {
    const found: Detection[] = [];
    for (const entry of named(context.source, "CustomLog", "TransferLog", "ErrorLog")) {
      const problem = pipedLogProblem(entry.directive.args[0] ?? "");
      if (!problem) continue;
      const fix = `${entry.directive.name} "|$${problem.command}"${entry.directive.args.slice(1).map((arg) => ` ${arg}`).join("")}`;
      found.push(
        problem.relative
          ? detection(entry, `2.4 runs "${problem.command}" without a shell and without a PATH search: it cannot start the program and refuses to start (AH00104, AH00015)`, fix, { severity: "blocking" })
          : detection(entry, `2.4 runs "${problem.command}" without a shell: the shell syntax reaches the program as arguments, the program fails and the log lines are lost (AH00106)`, fix),
      );
    }
    return found;
  },
  recognise: (evidence) => {
    const log = evidence.log.candidate;
    const unable = log.find((record) => record.code === "AH00104" || /unable to start piped log program/.test(record.message));
    if (unable && ["started", "startupLog", "configTest"].includes(evidence.field)) {
      return { summary: `2.4 could not start the piped log program without a shell (AH00104) and did not start`, severity: "blocking" };
    }
    const failed = log.find((record) => record.code === "AH00106" || /piped log program '.*' failed unexpectedly/.test(record.message));
    return failed && ["errorLog", "trailingLog", "startupLog", "exec"].includes(evidence.field)
      ? { summary: "2.4 runs the piped log program without a shell: it fails and restarts (AH00106), the log lines are lost" }
      : null;
  },
  fix: 'Write the command as "|$command" (run through the shell on 2.2 and 2.4), or as a program with its arguments and no shell syntax.',
  help: "Guide, changed semantics: piped logging commands are executed directly; in 2.2 they ran through /bin/sh -c.",
  sample: { config: 'CustomLog "|/bin/cat >> /tmp/piped.log" "%h %r %>s"', modules: ["log_config"], on24: "starts", request: "/" },
};
