import { describe, expect, it } from "vitest";
import { configIds } from "../../../harness/fleet/fleet-config.ts";

describe("configIds", () => {
  it("drops the directories all labels share, joining the rest with -", () => {
    expect(configIds(["configs/web/apache2", "configs/db/apache2", "configs/db/extra/apache2"])).toEqual(["web-apache2", "db-apache2", "db-extra-apache2"]);
    expect(configIds(["configs/app-htaccess", "configs/debian-ssl"])).toEqual(["app-htaccess", "debian-ssl"]);
  });

  it("keeps the last part of a single label, and of a label that is all the others share", () => {
    expect(configIds(["configs/app-htaccess"])).toEqual(["app-htaccess"]);
    expect(configIds(["sites/web", "sites/web/inner"])).toEqual(["web", "web-inner"]);
    expect(configIds(["./configs/a", "/srv/configs/b"])).toEqual(["configs-a", "srv-configs-b"]);
  });

  it("makes ids unique with -2, -3 in the order given", () => {
    expect(configIds(["x/web 01", "x/web-01", "x/web_01", "x/web@01"])).toEqual(["web-01", "web-01-2", "web_01", "web-01-3"]);
    expect(configIds(["x/a b", "x/a-b", "x/a-b-2"])).toEqual(["a-b", "a-b-2", "a-b-2-2"]);
  });

  it("turns characters an id cannot hold into one -, and trims them at the ends", () => {
    expect(configIds(["fleet/ web (prod) ", "fleet/mail.example.com", "fleet/ä/ö", "fleet/--x--"])).toEqual(["web-prod", "mail.example.com", "config", "x"]);
  });

  it("gives ids of letters, digits, dot, underscore and hyphen that start with neither . nor -, whatever the labels hold", () => {
    const ids = configIds(["f/.hidden", "f/-dash", "f/a:b", "f/ünïcode", "f/@", ".", "-/-"]);
    expect(ids).toEqual(["f-.hidden", "f--dash", "f-a-b", "f--n-code", "f", "config", "config-2"]);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_][A-Za-z0-9._-]*$/);
  });
});
