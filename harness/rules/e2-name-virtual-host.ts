// E2: NameVirtualHost has no effect on 2.4 except AH00548 "NameVirtualHost has no effect and will be removed in
// the next release FILE:LINE". 2.4 makes every address:port that several <VirtualHost>s share name-based; 2.2 did
// that only for a NameVirtualHost address and otherwise answered with the first vhost ("_default_ VirtualHost
// overlap on port 80, the first has precedence"), so such a tree answers other hosts on 2.4.
import { writtenFor24 } from "./default-anchor.ts";
import { detection, named, sectionsNamed } from "./detection.ts";
import { candidateLogs, recordsWithCode } from "./evidence.ts";
import type { Detection, Rule } from "./rule.ts";

const AH00548 = /NameVirtualHost has no effect and will be removed in the next release (\S+):(\d+)$/;
const OVERLAP_22 = /VirtualHost overlap on port \d+, the first has precedence/;

export const E2: Rule = {
  id: "E2",
  seed: ["E2"],
  title: "NameVirtualHost has no effect on 2.4 (AH00548); shared address:port pairs are name-based by themselves",
  severity: "deprecated",
  detect: (context) => {
    const found: Detection[] = named(context.source, "NameVirtualHost").map((entry) =>
      detection(entry, "NameVirtualHost has no effect on 2.4 and warns AH00548; name-based virtual hosts work without it", "remove NameVirtualHost"),
    );
    // Several vhosts on one address:port that 2.2 did not make name-based: 2.2 served the first for every Host.
    // Not in a tree written for 2.4 (it loads 2.4's MPM...): it never ran on 2.2, and means 2.4's name-based vhosts.
    if (writtenFor24(context)) return found;
    const declared = new Set(named(context.source, "NameVirtualHost").map((entry) => entry.directive.args[0]?.toLowerCase()));
    const seen = new Map<string, number>();
    for (const entry of sectionsNamed(context.target, "virtualhost")) {
      for (const address of entry.section.args.map((arg) => arg.toLowerCase())) {
        const count = (seen.get(address) ?? 0) + 1;
        seen.set(address, count);
        if (count === 2 && !declared.has(address)) {
          found.push(
            detection(entry, `2.2 answers every request to ${address} with the first <VirtualHost> (no NameVirtualHost for it); 2.4 selects among them by Host header`, null, {
              severity: "behaviour",
            }),
          );
        }
      }
    }
    return found;
  },
  recognise: (evidence) => {
    if (evidence.field === "configTest" || evidence.field === "startupLog" || evidence.field === "started") {
      const records = [...new Set([...recordsWithCode(evidence.log.candidate, "AH00548"), ...candidateLogs(evidence, AH00548)])];
      const lines = records.map((record) => AH00548.exec(record.message)).filter((match) => match !== null).map((match) => ({ file: match[1]!, line: Number(match[2]) }));
      if (records.length > 0) return { summary: "2.4 warns that NameVirtualHost has no effect (AH00548)", lines };
      if (evidence.log.baseline.some((record) => OVERLAP_22.test(record.message)) && !evidence.log.candidate.some((record) => OVERLAP_22.test(record.message))) {
        return { summary: "2.2 warned of overlapping virtual hosts (the first wins); 2.4 makes them name-based", severity: "behaviour" };
      }
    }
    return null;
  },
  fix: "Remove NameVirtualHost lines. Where several <VirtualHost>s share an address:port and 2.2 served only the first, give each the ServerName it should answer, or keep one.",
  help: "Guide, no-effect directives: NameVirtualHost has no effect except a warning; any address/port in several virtual hosts is implicitly name-based.",
  sample: { config: "NameVirtualHost *:80\n<VirtualHost *:80>\n    ServerName a.example\n</VirtualHost>", on24: "starts" },
};

