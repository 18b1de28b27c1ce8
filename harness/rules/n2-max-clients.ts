// N2: MaxClients is MaxRequestWorkers on 2.4; the old name still works. 2.4 notes it as AH00521 ("MaxClients is
// deprecated, use MaxRequestWorkers instead.", mpm:info) only at start-up level info. A value sized for 2.2's
// prefork processes can be small for 2.4's event MPM: real 2.4 logged AH10159 ("server is within
// MinSpareThreads of MaxRequestWorkers") for MaxClients 50 (maxclients-old-name).
import { detection, named } from "./detection.ts";
import { renamedNote } from "./n1-max-requests-per-child.ts";
import type { Rule } from "./rule.ts";

export const N2: Rule = {
  id: "N2",
  seed: ["N2"],
  title: "MaxClients is renamed MaxRequestWorkers (the old name is still accepted)",
  severity: "deprecated",
  detect: (context) =>
    named(context.source, "MaxClients").map((entry) =>
      detection(
        entry,
        "MaxClients is MaxRequestWorkers on 2.4; the old name still works (AH00521 at level info). Under the event or worker MPM it counts threads, not processes: check the value",
        `MaxRequestWorkers ${entry.directive.args.join(" ")}`.trim(),
      ),
    ),
  recognise: (evidence) => {
    const note = renamedNote(evidence, "AH00521", "MaxClients");
    if (note) return note;
    if (evidence.log.candidate.some((record) => record.code === "AH10159")) {
      return { summary: "2.4 warns that MaxRequestWorkers (set as MaxClients) is within MinSpareThreads (AH10159): a value sized for 2.2's processes", severity: "behaviour" };
    }
    return null;
  },
  fix: "Rename MaxClients to MaxRequestWorkers and size it for the 2.4 MPM (threads under event/worker).",
  help: "Guide, renamed directives: MaxClients → MaxRequestWorkers; the old name is still supported; under asynchronous MPMs the number of clients is not the number of worker threads.",
  sample: { config: "MaxClients 150", on24: "starts" },
};
