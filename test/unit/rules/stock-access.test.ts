import { describe, expect, it } from "vitest";
import { stockDocumentRoot, stockGrantedRoot } from "../../../harness/rules/stock-access.ts";

describe("stock-access", () => {
  it("knows which paths each target's stock config grants; an httpd -M file counts as official", () => {
    expect(stockGrantedRoot("official", "/usr/local/apache2/htdocs/app/")).toBe("/usr/local/apache2/htdocs");
    expect(stockGrantedRoot("official", "/usr/local/apache2/htdocsx")).toBeNull();
    expect(stockGrantedRoot("debian", '"/usr/share/tool"')).toBe("/usr/share");
    expect(stockGrantedRoot("/tmp/modules.txt", "/srv/x")).toBeNull();
    expect(stockDocumentRoot("rhel")).toBe("/var/www/html");
  });

});
