// The plan as a person reads it: per scenario and side, where the image facts come from, the config the
// server boots with, the files staged, the prepare steps and the requests.
import type { PlannedFile, ScenarioPlan } from "../plan/scenario-plan.ts";
import { formatSubject } from "../scenario/subject-name.ts";
import { describeRequest } from "./build-report.ts";

const FACTS: Record<string, string> = {
  inspected: "inspected now",
  cache: "from the last inspection (cached)",
  defaults: "official layout's defaults for this version (no inspection cached)",
};

function fileLine(file: PlannedFile): string {
  const mode = file.mode === undefined ? "" : ` mode ${file.mode.toString(8).padStart(4, "0")}`;
  if ("generated" in file.content) return `  ${file.path}${mode}: generated at run time (${file.content.generated})`;
  const bytes = "text" in file.content ? Buffer.byteLength(file.content.text) : Buffer.from(file.content.base64, "base64").length;
  return `  ${file.path}${mode}: ${bytes} bytes`;
}

export function renderPlanText(plans: readonly ScenarioPlan[], options: { sides?: readonly string[] } = {}): string {
  const out: string[] = [];
  for (const plan of plans) {
    out.push(`=== ${plan.scenario.id}: ${plan.scenario.title} (${plan.scenario.file})`);
    if (plan.clients.length) out.push(`clients: ${plan.clients.join(", ")}`);
    if (plan.backends.length) out.push(`backends: ${plan.backends.map((b) => `${b.name} (${b.kind}${b.kind === "https-origin" ? `, ${b.certificate} certificate` : ""})`).join(", ")}`);
    if (plan.serverCertificate) {
      const subject = plan.serverCertificate.subject ? `, subject ${formatSubject(plan.serverCertificate.subject)}` : "";
      out.push(`server certificate: ${plan.serverCertificate.kind}${subject}, issued by the run's CA`);
    }
    for (const side of plan.sides) {
      if (options.sides && !options.sides.includes(side.side.id)) continue;
      const s = side.server;
      out.push("", `--- ${side.side.id}: ${s.image}, httpd ${s.version} (${s.profile} layout; facts: ${FACTS[s.facts] ?? s.facts})`);
      if (side.missingModules.length) out.push(`missing modules: ${side.missingModules.join(", ")}`);
      if (side.tree) {
        const t = side.tree;
        out.push(`tree: ${t.origin} (${t.layout} layout) staged at ${t.mount}; main file ${t.mainFile}${t.defines.length ? `; -D ${t.defines.join(" -D ")}` : ""}`);
        out.push(`files read, in order: ${t.files.join(", ")}`);
        if (t.adaptations.length) out.push("changed by the harness:", ...t.adaptations.map((a) => `  ${a.file === null ? "(command line)" : `${a.file}:${a.line}`}: ${a.now}  (${a.reason})`));
        if (t.stubs.length) out.push("made by the harness (the tree does not hold them):", ...t.stubs.map((stub) => `  ${stub.kind} ${stub.target}  (${stub.file}:${stub.line}: ${stub.note})`));
        if (t.problems.length) out.push("problems:", ...t.problems.map((p) => `  ${p.severity} ${p.file}:${p.line}:${p.column}: ${p.message}`));
      }
      if (side.httpd.args.length) out.push(`httpd arguments: ${side.httpd.args.join(" ")}`);
      if (Object.keys(side.httpd.environment).length) out.push(`environment: ${Object.entries(side.httpd.environment).map(([k, v]) => `${k}=${v}`).join(" ")}`);
      if (side.setup.length) out.push("setup:", ...side.setup.map((line) => `  ${line}`));
      out.push(`${side.config.path}:`, ...side.config.text.trimEnd().split("\n").map((line) => `  | ${line}`));
      if (side.files.length) out.push("files:", ...side.files.map(fileLine));
      if (side.prepare.length) out.push("prepare:", ...side.prepare.map((command, i) => `  ${i + 1}. ${command}`));
      if (side.localClient) out.push("local client: a tools container in the server's network namespace, sending to 127.0.0.1 and ::1");
      if (side.requests.length) {
        out.push("requests:");
        for (const request of side.requests) {
          out.push(`  ${request.name} from ${request.client}: ${describeRequest(request)}${request.repeat ? "" : " (sent once)"}`);
        }
      }
    }
    out.push("");
  }
  out.push("⟪name⟫ marks an address the engine gives when the containers start.");
  return `${out.join("\n")}\n`;
}
