import { describe, expect, it } from "vitest";
import { grantedOn24, stockDocumentRoot, stockGrantedRoot } from "../../../harness/rules/stock-access.ts";

describe("stock-access", () => {
  it("knows which paths each target's stock config grants; an httpd -M file counts as official", () => {
    expect(stockGrantedRoot("official", "/usr/local/apache2/htdocs/app/")).toBe("/usr/local/apache2/htdocs");
    expect(stockGrantedRoot("official", "/usr/local/apache2/htdocsx")).toBeNull();
    expect(stockGrantedRoot("debian", '"/usr/share/tool"')).toBe("/usr/share");
    expect(stockGrantedRoot("/tmp/modules.txt", "/srv/x")).toBeNull();
    expect(stockDocumentRoot("rhel")).toBe("/var/www/html");
  });

  it("lets the nearest <Directory> with Require lines decide, then the stock config around a fragment, else unknown", () => {
    const tree = new Map([
      ["/", [{ provider: "all", negated: false, args: ["denied"] }]],
      ["/srv/open", [{ provider: "all", negated: false, args: ["granted"] }]],
      ["/srv/open/ip", [{ provider: "ip", negated: false, args: ["10.0.0.1"] }]],
    ]);
    const at = (path: string) => tree.get(path);
    expect(grantedOn24(at, false, "official", "/srv/open/cgi/")).toBe(true);
    expect(grantedOn24(at, false, "official", "/srv/open/ip/x")).toBe(false);
    expect(grantedOn24(at, false, "official", "/srv/other")).toBe(false);
    expect(grantedOn24(() => undefined, true, "official", "/usr/local/apache2/htdocs/x")).toBe(true);
    expect(grantedOn24(() => undefined, true, "official", "/srv/x")).toBe(false);
    expect(grantedOn24(() => undefined, false, "official", "/srv/x")).toBeNull();
  });
});
