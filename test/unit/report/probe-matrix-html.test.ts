import { describe, expect, it } from "vitest";
import { reportProbes } from "../../../harness/report/build-report.ts";
import { renderProbeMatrix } from "../../../harness/report/probe-matrix-html.ts";
import { PROBE_CELLS, probeScenario } from "./probe-report.ts";

/** Values of one attribute over all elements that carry it, in document order. */
function attributeValues(html: string, name: string): string[] {
  return [...html.matchAll(new RegExp(`\\s${name}="([^"]*)"`, "g"))].map((m) => m[1] ?? "");
}

/** Per body row: the row's place, then per column the classes of its cells. */
function grid(html: string): Array<{ region: string; path: string | null; cells: string[][] }> {
  const body = html.slice(html.indexOf("<tbody>"), html.indexOf("</tbody>"));
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map(([, row]) => ({
    region: attributeValues(row!.slice(0, row!.indexOf("</th>")), "data-region")[0]!,
    path: attributeValues(row!.slice(0, row!.indexOf("</th>")), "data-path")[0] ?? null,
    cells: [...row!.matchAll(/<td>([\s\S]*?)<\/td>/g)].map(([, td]) => attributeValues(td!, "data-cell-class")),
  }));
}

/** The markup of the first counterexample of a class: its <details> element. */
function counterexample(html: string, cls: string): string {
  const match = html.match(new RegExp(`<details[^>]*data-cell-class="${cls}"[\\s\\S]*?</details>`));
  if (match === null) throw new Error(`no ${cls} counterexample`);
  return match[0];
}

describe("renderProbeMatrix", () => {
  const html = renderProbeMatrix(probeScenario());

  it("says the count per class and how many cells are proven above the matrix", () => {
    const summary = html.slice(html.indexOf("data-probe-summary"), html.indexOf("</p>", html.indexOf("data-probe-summary")));
    expect(attributeValues(summary, "data-class-count")).toEqual(["equal", "widened", "source-exposed", "narrowed", "changed", "vacuous", "unprobed", "accepted"]);
    expect(summary).toContain('<span class="pc c-widened">2</span> widened<span class="sec"');
    expect(summary).toContain('<span data-proven="2"><b>2 proven</b> of 11 cells</span>');
    expect(html.indexOf("data-probe-summary")).toBeLessThan(html.indexOf("<table"));
  });

  it("has a row per vhost × section × path and a column per client × credentials, each cell in its slot", () => {
    expect(attributeValues(html, "data-column")).toEqual(["outsider · none", "10.0.0.0/8 · valid admin", "10.0.0.0/8 · wrong-password admin"]);
    expect(grid(html)).toEqual([
      { region: "&lt;Directory /srv/www/admin&gt;", path: "/admin/probe.html", cells: [["widened", "widened"], ["equal"], []] },
      { region: "&lt;Location /cgi-bin&gt;", path: "/cgi-bin/probe.cgi", cells: [["source-exposed"], [], []] },
      { region: "/", path: "/index.html", cells: [["narrowed"], ["changed"], ["accepted"]] },
      { region: "&lt;Directory &quot;/srv/&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;", path: "/x/&lt;b&gt;probe&lt;/b&gt;.txt", cells: [["vacuous"], [], ["equal"]] },
      { region: "&lt;Directory /srv/www/private&gt;", path: null, cells: [["unprobed"], ["unprobed"], []] },
    ]);
  });

  it("stacks the methods of one slot, each cell with its short text, colour class and reason as its title", () => {
    const slot = grid(html)[0]!;
    expect(slot.cells[0]).toHaveLength(2);
    expect(attributeValues(html, "data-method").slice(0, 2)).toEqual(["GET", "HEAD"]);
    expect(html).toMatch(/<span class="pc c-equal" data-cell="[^"]*" data-cell-class="equal" data-method="GET" title="equal: = \(GET \/admin\/probe.html from 10.0.0.0\/8 · valid admin\)"><span class="m">GET<\/span>=<\/span>/);
    expect(html).toContain('title="vacuous: the same failure on both sides (ECONNRESET): no answer came (GET /x/&lt;b&gt;probe&lt;/b&gt;.txt from outsider · none)"');
    expect(html).toContain('title="unprobed: no probe could stand for it: the section matches no URL (GET (no probe) from outsider · none)"');
    expect(attributeValues(html, "data-security")).toEqual(["true", "true", "true"]);
  });

  it("makes only counterexamples open, and nothing else", () => {
    const opening = [...html.matchAll(/<details[^>]*data-cell-class="([^"]+)"/g)].map((m) => m[1]);
    expect(opening).toEqual(["widened", "widened", "source-exposed", "narrowed", "changed"]);
  });

  it("opens a widened cell to both sides' answers, the bodies' first lines and the lines that decide it", () => {
    const widened = counterexample(html, "widened");
    expect(widened).toContain('<summary><span class="m">GET</span>denied → served<span class="sec"');
    const baseline = widened.slice(widened.indexOf('data-side="baseline"'), widened.indexOf('data-side="candidate"'));
    const candidate = widened.slice(widened.indexOf('data-side="candidate"'), widened.indexOf("<h4>Deciding lines</h4>"));
    expect(baseline).toContain("<b>denied</b> <code>403</code>");
    expect(baseline).toContain("<li>AH01797 client denied by server configuration</li>");
    expect(baseline).toContain('<p class="mono">status 403</p><pre>&lt;html&gt;&lt;title&gt;403 Forbidden&lt;/title&gt;&lt;/html&gt;</pre>');
    expect(candidate).toContain("<b>served</b> <code>200</code>");
    expect(candidate).toContain("<pre>probe m-41\nsecond line\n3\n4\n5\n6\n…</pre>");
    expect(candidate).not.toContain("seventh line");
    const deciding = widened.slice(widened.indexOf("<h4>Deciding lines</h4>"));
    expect(deciding).toContain(`in <code>http://(default):80</code> <code>&lt;Directory /srv/www/admin&gt;</code>`);
    // Only the finding that names this request decides it; the narrowed cell's cause is not this one's.
    expect(attributeValues(deciding, "data-deciding")).toEqual(["access-widened"]);
    expect(deciding).toContain("<li><code>sites-enabled/admin.conf:7</code> <code>Require all granted</code></li>");
    expect(deciding).toContain("status 403 → 200 on GET /admin/probe.html");
  });

  it("says so when no finding names a counterexample's request", () => {
    expect(counterexample(html, "changed")).toContain('<p class="absent">no finding names this request</p>');
    expect(attributeValues(counterexample(html, "narrowed"), "data-deciding")).toEqual(["access-narrowed"]);
  });

  it("keeps markup in a region, a path or a reason as text, in content and in attributes", () => {
    const hostile = { ...probeScenario() };
    hostile.probes = reportProbes(PROBE_CELLS.map((c) => ({ ...c, reason: `<img src=x onerror=alert(1)> "quoted"`, user: c.user === null ? null : `<i>${c.user}</i>` })));
    const out = renderProbeMatrix(hostile);
    expect(out).not.toMatch(/<script|<img|<i>|<b>probe/);
    expect(out).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(out).toContain("&lt;img src=x onerror=alert(1)&gt; &quot;quoted&quot;");
    expect(attributeValues(out, "data-column")).toContain("10.0.0.0/8 · valid &lt;i&gt;admin&lt;/i&gt;");
  });

  it("scrolls in its own box once it outgrows a screen, and not before", () => {
    expect(html).toContain('<div class="probe-scroll"><table');
    const wide = { ...probeScenario() };
    wide.probes = reportProbes(Array.from({ length: 61 }, (_, i) => ({ ...PROBE_CELLS[2]!, cell: `c${i}`, client: `10.${i}.0.0/16` })));
    const out = renderProbeMatrix(wide);
    expect(attributeValues(out, "data-column")).toHaveLength(61);
    expect(out).toContain('<div class="probe-scroll scrolls"><table');
    expect(out).toContain("It scrolls in its box; its headings stay in view.");
  });

  it("draws nothing for a scenario without probes", () => {
    expect(renderProbeMatrix({ ...probeScenario(), probes: null })).toBe("");
  });
});
