import { describe, expect, test } from "vitest";
import { declaredServerRoot, detectLayout } from "../../../harness/conf/detect-layout.ts";
import type { LayoutId } from "../../../harness/conf/effective-config.ts";

function detect(files: Record<string, string>, options: { directories?: string[]; singleFile?: boolean; override?: LayoutId } = {}) {
  const map = new Map(Object.entries(files).map(([path, text]) => [path, Buffer.from(text)]));
  const directories = new Set(["", ...(options.directories ?? [])]);
  for (const path of map.keys()) for (let i = path.lastIndexOf("/"); i > 0; i = path.lastIndexOf("/", i - 1)) directories.add(path.slice(0, i));
  return detectLayout({ files: map, directories, read: (p) => map.get(p), singleFile: options.singleFile ?? false }, options.override);
}

describe("detectLayout", () => {
  test("official: conf/httpd.conf, mounted at the ServerRoot it declares", () => {
    expect(detect({ "conf/httpd.conf": 'ServerRoot "/opt/httpd"\n', "conf/extra/httpd-ssl.conf": "" })).toEqual({
      layout: "official",
      mount: "/opt/httpd",
      mainFile: "conf/httpd.conf",
      serverRoot: "/opt/httpd",
    });
    expect(detect({ "conf/httpd.conf": '#ServerRoot "/x"\n' }).mount).toBe("/usr/local/apache2");
  });

  test("official conf/ directory alone sits at ServerRoot/conf", () => {
    expect(detect({ "httpd.conf": "", "extra/httpd-vhosts.conf": "" })).toMatchObject({ layout: "official", mount: "/usr/local/apache2/conf", mainFile: "httpd.conf" });
  });

  test("debian: apache2.conf, mounted at /etc/apache2", () => {
    expect(detect({ "apache2.conf": "", "ports.conf": "", envvars: "", "mods-enabled/ssl.load": "" })).toEqual({
      layout: "debian",
      mount: "/etc/apache2",
      mainFile: "apache2.conf",
      serverRoot: "/etc/apache2",
    });
  });

  test("rhel: conf/httpd.conf with conf.d/, or declaring ServerRoot /etc/httpd", () => {
    expect(detect({ "conf/httpd.conf": "", "conf.d/ssl.conf": "" })).toMatchObject({ layout: "rhel", mount: "/etc/httpd" });
    expect(detect({ "conf/httpd.conf": 'ServerRoot "/etc/httpd"\n' })).toMatchObject({ layout: "rhel", mount: "/etc/httpd", serverRoot: "/etc/httpd" });
  });

  test("the file-system form is mounted at /", () => {
    expect(detect({ "etc/apache2/apache2.conf": "", "etc/phpmyadmin/apache.conf": "" })).toEqual({
      layout: "debian",
      mount: "/",
      mainFile: "etc/apache2/apache2.conf",
      serverRoot: "/etc/apache2",
    });
    expect(detect({ "etc/httpd/conf/httpd.conf": "" })).toMatchObject({ layout: "rhel", mount: "/", mainFile: "etc/httpd/conf/httpd.conf", serverRoot: "/etc/httpd" });
  });

  test("fragment: one file, or a directory with none of the above", () => {
    expect(detect({ "site.conf": "" }, { singleFile: true })).toEqual({ layout: "fragment", mount: "/usr/local/apache2", mainFile: "site.conf", serverRoot: "/usr/local/apache2" });
    expect(detect({ ".htaccess": "" }, { singleFile: true }).mainFile).toBe(".htaccess");
    expect(detect({ "notes.txt": "", "b.conf": "", "a.conf": "" })).toMatchObject({ layout: "fragment", mainFile: "a.conf" });
  });

  test("a fragment in the file-system form (etc/tool/apache.conf, usr/share/tool/...) sits at /, so its absolute paths are its own", () => {
    expect(detect({ "etc/tool/apache.conf": "", "etc/tool/htpasswd": "", "usr/share/tool/www/index.html": "" })).toEqual({
      layout: "fragment",
      mount: "/",
      mainFile: "etc/tool/apache.conf",
      serverRoot: "/usr/local/apache2",
    });
    // Loose files beside it, or no etc/: the image's ServerRoot as before.
    expect(detect({ "etc/tool/apache.conf": "", "README": "" }).mount).toBe("/usr/local/apache2");
    expect(detect({ "sites/a.conf": "", "sites/b.conf": "" }).mount).toBe("/usr/local/apache2");
  });

  test("the caller's layout wins", () => {
    expect(detect({ "apache2.conf": "", "conf/httpd.conf": "" }, { override: "official" })).toMatchObject({ layout: "official", mainFile: "conf/httpd.conf" });
    expect(detect({ "conf/httpd.conf": "" }, { override: "fragment" })).toMatchObject({ layout: "fragment", mainFile: "conf/httpd.conf" });
    expect(detect({ "conf/httpd.conf": "" }, { override: "rhel" })).toMatchObject({ layout: "rhel", mount: "/etc/httpd" });
  });
});

describe("declaredServerRoot", () => {
  test.each([
    ['ServerRoot "/usr/local/apache2"\n', "/usr/local/apache2"],
    ["  serverroot /opt/x/\n", "/opt/x"],
    ['ServerRoot "${ROOT}"\n', null],
    ["# ServerRoot /x\n", null],
    ["ServerRoot relative\n", null],
  ])("%j → %s", (text, expected) => {
    expect(declaredServerRoot(Buffer.from(text))).toBe(expected);
  });
});
