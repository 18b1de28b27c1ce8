import { describe, expect, it } from "vitest";
import { renderJunitReport, scenarioArea } from "../../../harness/report/junit-report.ts";
import { reportFailure } from "../../../harness/report/build-report.ts";
import type { Report, ReportFailure, ReportScenario } from "../../../harness/report/report-model.ts";
import { sampleReport, sampleReportWithSecurity } from "../../fixtures/reports/sample-report.ts";

interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

function decode(text: string): string {
  return text.replace(/&(lt|gt|amp|quot|apos|#(\d+));/g, (_, name: string, code: string | undefined) =>
    code !== undefined ? String.fromCodePoint(Number(code)) : ({ lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" })[name] ?? "",
  );
}

/** A tiny, strict parser for the subset the reporter writes: fails on unbalanced tags, stray `<` or `&`. */
function parseXml(xml: string): XmlElement {
  const forbidden = xml.match(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u);
  if (forbidden !== null) throw new Error(`character XML 1.0 forbids: U+${forbidden[0].codePointAt(0)?.toString(16)}`);
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, "");
  const root: XmlElement = { name: "#document", attributes: {}, children: [], text: "" };
  const stack = [root];
  const token = /<(\/?)([A-Za-z][\w.-]*)((?:\s+[\w.:-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/gy;
  let match: RegExpExecArray | null;
  let consumed = 0;
  while ((match = token.exec(body)) !== null) {
    consumed = token.lastIndex;
    const [, closing, name, attrs, selfClosing, text] = match;
    const top = stack.at(-1);
    if (top === undefined) throw new Error("content after the root element");
    if (text !== undefined) {
      if (/&(?!(lt|gt|amp|quot|apos|#\d+);)/.test(text)) throw new Error(`bare & in text: ${text}`);
      top.text += decode(text);
      continue;
    }
    if (closing === "/") {
      if (top.name !== name) throw new Error(`</${name}> closes <${top.name}>`);
      stack.pop();
      continue;
    }
    const attributes: Record<string, string> = {};
    for (const [, key, value] of (attrs ?? "").matchAll(/([\w.:-]+)="([^"]*)"/g)) {
      if (key === undefined || value === undefined) continue;
      if (/&(?!(lt|gt|amp|quot|apos|#\d+);)/.test(value)) throw new Error(`bare & in attribute ${key}`);
      attributes[key] = decode(value);
    }
    const element: XmlElement = { name: name ?? "", attributes, children: [], text: "" };
    top.children.push(element);
    if (selfClosing !== "/") stack.push(element);
  }
  if (consumed !== body.length) throw new Error(`cannot parse at: ${body.slice(consumed, consumed + 40)}`);
  if (stack.length !== 1) throw new Error(`unclosed <${stack.at(-1)?.name}>`);
  const [document] = root.children;
  if (document === undefined || root.children.length !== 1) throw new Error("expected one root element");
  return document;
}

function renderJunitReportDocument(report: Report): XmlElement {
  return parseXml(renderJunitReport(report));
}

/** An unmet status expectation of a request, as the report carries it. */
function statusFailure(actual: string, request: string): ReportFailure {
  return reportFailure({ kind: "status", request, field: "status", expected: "status 200", actual, at: null });
}

function all(element: XmlElement, name: string): XmlElement[] {
  return element.children.flatMap((child) => [...(child.name === name ? [child] : []), ...all(child, name)]);
}

/** The suite of scenarios: the last one (the findings suite, when there is one, comes first). */
function scenarioSuite(document: XmlElement): XmlElement {
  return all(document, "testsuite").at(-1)!;
}

function byId(document: XmlElement, id: string): XmlElement {
  const testcase = all(document, "testcase").find((tc) => tc.attributes.name?.startsWith(`${id}:`));
  if (testcase === undefined) throw new Error(`no testcase ${id}`);
  return testcase;
}

describe("renderJunitReport", () => {
  const xml = renderJunitReport(sampleReport);
  const document = parseXml(xml);

  it("writes the findings suite first, then one testsuite for the run, with totals over both", () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
    const suites = all(document, "testsuite");
    expect(suites.map((suite) => suite.attributes)).toEqual([
      {
        name: "httpd-upgrade-harness httpd:2.2.34 -> httpd-upgrade-harness/httpd-2.4:2.4.62: findings",
        tests: "1",
        failures: "1",
        errors: "0",
        skipped: "0",
        time: "0.000",
        timestamp: "2026-11-21T22:40:58.000Z",
      },
      {
        name: "httpd-upgrade-harness httpd:2.2.34 -> httpd-upgrade-harness/httpd-2.4:2.4.62",
        tests: "6",
        failures: "1",
        errors: "1",
        skipped: "1",
        time: "41.779",
        timestamp: "2026-11-21T22:40:58.000Z",
      },
    ]);
    expect(document.attributes).toEqual({ name: "httpd-upgrade-harness httpd:2.2.34 -> httpd-upgrade-harness/httpd-2.4:2.4.62", tests: "7", failures: "2", errors: "1", time: "41.779" });
  });

  it("has one testcase per scenario and counts failures, errors and skips", () => {
    const suite = scenarioSuite(document);
    expect(all(suite, "testcase")).toHaveLength(sampleReport.scenarios.length);
    expect(all(suite, "failure")).toHaveLength(1);
    expect(all(suite, "error")).toHaveLength(1);
    expect(all(suite, "skipped")).toHaveLength(1);
  });

  it("leads with one testcase per finding no scenario predicted, worst first, failing those that fail the run", () => {
    const findings = all(renderJunitReportDocument(sampleReportWithSecurity()), "testsuite")[0]!;
    expect(all(findings, "testcase").map((tc) => [tc.attributes.classname, tc.attributes.name, tc.attributes.file, tc.children.map((c) => c.name)])).toEqual([
      ["findings.blocking", "R9 at conf/httpd.conf:50 (x3-order-without-access-compat)", "conf/httpd.conf", ["failure"]],
      ["findings.security_behaviour", "A7 at sites-enabled/<admin>.conf:12 (a6-server-status-denied)", "sites-enabled/<admin>.conf", ["failure"]],
      ["findings.unexplained", "unexplained at GET /private/ (q6-satisfy-any-ip-or-user)", undefined, ["failure"]],
    ]);
    const security = all(findings, "failure")[1]!;
    expect([security.attributes, security.text.split("\n")]).toEqual([
      { message: "security (behaviour): A7: Satisfy Any with Require: 2.4 grants what 2.2 asked a password for", type: "behaviour" },
      [
        "security (behaviour): A7: Satisfy Any with Require: 2.4 grants what 2.2 asked a password for",
        "- sites-enabled/<admin>.conf:12 Satisfy any",
        "4 requests: GET /admin/, GET /admin/a, GET /admin/b, …",
        "  status 401 → 200 on GET /admin/",
      ],
    ]);
  });

  it("names testcases after the catalogue area, id and title, with file and time in seconds", () => {
    expect(byId(document, "a6-server-status-denied").attributes).toEqual({
      classname: "catalogue.authz",
      name: "a6-server-status-denied: server-status denied by an inherited Order/Deny despite Require ip",
      file: "scenarios/catalogue/authz/server-status-denied.scenario.yaml",
      time: "6.412",
    });
    expect(all(scenarioSuite(document), "testcase").map((tc) => tc.attributes.classname)).toEqual([
      "catalogue.authz", "catalogue.proxy", "catalogue.config-test", "catalogue.authz", "catalogue.proxy", "catalogue.vhosts",
    ]);
  });

  it("lists the regression differences and the unmet expectations per side in the failure", () => {
    const [failure] = all(byId(document, "q6-satisfy-any-ip-or-user"), "failure");
    expect(failure?.attributes).toEqual({ message: "2 regressions, 1 unmet expectation", type: "regression" });
    expect(failure?.text).toMatchInlineSnapshot(`
      "Regressions (differences no seed row predicts):
      - request "allowed ip, no credentials", status: no seed row predicts status for this request (rule tried: /40[13]|AH0(1797|1630)/)
          baseline:  200
          candidate: 401
      - request "allowed ip, no credentials", header:www-authenticate: no seed row predicts header:www-authenticate
          baseline:  (absent)
          candidate: Basic realm="private"

      Unmet expectations (candidate):
      - request allowed ip, no credentials: status: expected status 200, got status 401 (scenarios/catalogue/authz/satisfy-any.scenario.yaml:24:20)"
    `);
  });

  it("reports verdict error as <error> with the harness error code", () => {
    const [error] = all(byId(document, "d4-proxy-wrong-name-cert"), "error");
    expect(error?.attributes.type).toBe("HARNESS_CONTAINER");
    expect(error?.attributes.message).toContain('request "via proxy" got no response headers');
  });

  it("skips a scenario whose baseline expectations were skipped, only when nothing failed", () => {
    const [skipped] = all(byId(document, "e2-namevirtualhost"), "skipped");
    expect(skipped?.attributes.message).toBe("baseline: baseline image httpd:2.2.34 missing");

    const e2 = sampleReport.scenarios.find((s) => s.id === "e2-namevirtualhost") as ReportScenario;
    const failing: ReportScenario = {
      ...e2,
      verdict: "regression",
      expectations: { ...e2.expectations, candidate: { ok: false, stated: true, failures: [statusFailure("status 500", "by host name")], skipped: null } },
    };
    const doc = parseXml(renderJunitReport({ ...sampleReport, scenarios: [failing] }));
    expect(all(doc, "skipped")).toHaveLength(0);
    expect(all(doc, "failure")[0]?.text).toBe("Unmet expectations (candidate):\n- request by host name: status: expected status 200, got status 500");
  });

  it("puts the guide-is-wrong notes into system-out", () => {
    const [out] = all(byId(document, "d5-proxy-expired-cert"), "system-out");
    expect(out?.text.split("\n").slice(0, 3)).toEqual([
      "The upgrade guide is wrong here:",
      "- guide says 502; 2.4 answers 500",
      "- 2.4.62: request via proxy: status: expected status 502, got status 500 (scenarios/catalogue/proxy/expired-backend-cert.scenario.yaml:31:20)",
    ]);
  });

  it("stays well-formed with markup characters and control characters anywhere", () => {
    const q6 = sampleReport.scenarios.find((s) => s.id === "q6-satisfy-any-ip-or-user") as ReportScenario;
    const nasty = `<&>"' \u0000\u0008\u001b[31m\uFFFF`;
    const report: Report = {
      ...sampleReport,
      baseline: { ...sampleReport.baseline, image: `img${nasty}` },
      scenarios: [
        {
          ...q6,
          id: `q6${nasty}`,
          title: `title ${nasty}\nsecond line`,
          file: `scenarios/catalogue/a.b/x${nasty}.yaml`,
          expectations: { ...q6.expectations, candidate: { ok: false, stated: true, failures: [statusFailure(`body ${nasty}`, "r")], skipped: null } },
        },
      ],
    };
    const doc = scenarioSuite(parseXml(renderJunitReport(report)));
    const [testcase] = all(doc, "testcase");
    expect(testcase?.attributes.name).toBe("q6<&>\"' \uFFFD\uFFFD\uFFFD[31m\uFFFD: title <&>\"' \uFFFD\uFFFD\uFFFD[31m\uFFFD\nsecond line");
    expect(testcase?.attributes.classname).toBe("catalogue.a_b");
    expect(all(doc, "failure")[0]?.text).toContain("got body <&>\"' \uFFFD\uFFFD\uFFFD[31m\uFFFD");
  });
});

describe("scenarioArea", () => {
  it("takes the folder under catalogue/, else the parent folder", () => {
    expect(scenarioArea("scenarios/catalogue/authz/x.scenario.yaml")).toBe("authz");
    expect(scenarioArea("/abs/scenarios/catalogue/proxy/tls/x.yaml")).toBe("proxy");
    expect(scenarioArea("my-fleet/vhosts/x.yaml")).toBe("vhosts");
    expect(scenarioArea("x.yaml")).toBe("scenarios");
    expect(scenarioArea("C:\\work\\catalogue\\authz\\x.yaml")).toBe("authz");
  });
});
