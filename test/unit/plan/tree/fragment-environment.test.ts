import { describe, expect, it } from "vitest";
import { DEBIAN_ENVVARS, fragmentEnvironment } from "../../../../harness/plan/tree/fragment-environment.ts";
import { memoryTree } from "../../conf/memory-tree.ts";

const fragment = (files: Record<string, string>) => ({ ...memoryTree(files), layout: "fragment" as const, mainFile: Object.keys(files)[0]! });

describe("fragmentEnvironment", () => {
  it("sets each envvars name a site file uses to Debian's value, naming the first line that uses it", () => {
    const result = fragmentEnvironment(fragment({ "site.conf": "<VirtualHost *:80>\n  # ${APACHE_RUN_DIR} in a comment\n  ErrorLog ${APACHE_LOG_DIR}/error.log\n  CustomLog ${APACHE_LOG_DIR}/access.log combined\n</VirtualHost>\n" }));
    expect(result.environment).toEqual({ APACHE_LOG_DIR: DEBIAN_ENVVARS.APACHE_LOG_DIR });
    expect(result.stubs).toEqual([expect.objectContaining({ kind: "variable", target: "APACHE_LOG_DIR=/var/log/apache2", file: "site.conf", line: 3 })]);
  });

  it("leaves a name the fragment defines itself, and names envvars never sets", () => {
    const result = fragmentEnvironment(fragment({ "site.conf": "Define APACHE_LOG_DIR /srv/logs\nErrorLog ${APACHE_LOG_DIR}/e.log\nDocumentRoot ${SITE_ROOT}\nUser ${APACHE_RUN_USER}\n" }));
    expect(result.environment).toEqual({ APACHE_RUN_USER: "www-data" });
  });

  it("sets nothing for a whole tree, whose envvars (or none) the layout reads", () => {
    const tree = { ...memoryTree({ "apache2.conf": "ErrorLog ${APACHE_LOG_DIR}/error.log\n" }), layout: "debian" as const, mainFile: "apache2.conf" };
    expect(fragmentEnvironment(tree)).toEqual({ environment: {}, stubs: [] });
  });
});
