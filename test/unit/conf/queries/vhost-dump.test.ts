import { describe, expect, it } from "vitest";
import { vhostDump } from "../../../../harness/conf/queries/vhost-dump.ts";
import { effectiveConfig } from "./build-effective-config.ts";

// One config, as httpd 2.2.34 and 2.4.68 printed it with -S (the 2.4 run without NameVirtualHost, which it
// ignores with a warning).
const CONFIG = `ServerName main.test
NameVirtualHost *:80
<VirtualHost *:80>
  ServerName a.test
  ServerAlias *.a.test x.a.test
</VirtualHost>
<VirtualHost *:80>
  ServerName b.test
</VirtualHost>
<VirtualHost *:81>
  ServerName c.test
</VirtualHost>
<VirtualHost *:81>
  ServerName d.test
</VirtualHost>
<VirtualHost _default_:443>
  ServerName e.test
</VirtualHost>
<VirtualHost *:443>
  ServerName f.test
</VirtualHost>
`;

const shape = (version: string) =>
  vhostDump(effectiveConfig(CONFIG, { version })).map((a) => ({
    address: a.address,
    nameBased: a.nameBased,
    default: a.defaultServer.name,
    vhosts: a.vhosts.map((v) => [v.name, v.span.line, ...v.aliases, ...v.wildAliases].join(" ")),
  }));

describe("vhostDump", () => {
  it("2.2: names matched only where NameVirtualHost says, _default_ apart from *, each other vhost alone, no aliases", () => {
    expect(shape("2.2.34")).toEqual([
      { address: "*:80", nameBased: true, default: "a.test", vhosts: ["a.test 3", "b.test 7"] },
      { address: "*:81", nameBased: false, default: "c.test", vhosts: ["c.test 10"] },
      { address: "*:81", nameBased: false, default: "d.test", vhosts: ["d.test 13"] },
      { address: "_default_:443", nameBased: false, default: "e.test", vhosts: ["e.test 16"] },
      { address: "*:443", nameBased: false, default: "f.test", vhosts: ["f.test 19"] },
    ]);
  });

  it("2.2: one vhost on a declared address is name-based too", () => {
    const dump = vhostDump(effectiveConfig("NameVirtualHost *:80\n<VirtualHost *:80>\n  ServerName a.test\n</VirtualHost>\n", { version: "2.2.34" }));
    expect(dump.map((a) => [a.address, a.nameBased, a.vhosts.length])).toEqual([["*:80", true, 1]]);
  });

  it("2.4: _default_ is *, every address with several vhosts matches names, aliases plain then wild", () => {
    expect(shape("2.4.68")).toEqual([
      { address: "*:80", nameBased: true, default: "a.test", vhosts: ["a.test 3 x.a.test *.a.test", "b.test 7"] },
      { address: "*:81", nameBased: true, default: "c.test", vhosts: ["c.test 10", "d.test 13"] },
      { address: "*:443", nameBased: true, default: "e.test", vhosts: ["e.test 16", "f.test 19"] },
    ]);
  });
});
