import { describe, expect, it } from "vitest";
import { runAs } from "../../../../harness/conf/queries/run-as.ts";
import { at, effectiveConfig } from "./build-effective-config.ts";

describe("runAs", () => {
  it("is the main server's last User and Group, not a vhost's", () => {
    const config = effectiveConfig(`
User nobody
User www-data
Group www-data
<VirtualHost *:80>
  User someone
</VirtualHost>
`);
    expect(runAs(config)).toEqual({
      user: { value: "www-data", span: expect.objectContaining(at("conf/httpd.conf", 2)) },
      group: { value: "www-data", span: expect.objectContaining(at("conf/httpd.conf", 3)) },
    });
    expect(runAs(effectiveConfig("Listen 80"))).toEqual({ user: null, group: null });
  });
});
