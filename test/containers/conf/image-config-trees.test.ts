// The configuration trees the images ship, read by the model: every file of the 2.4 image's
// /usr/local/apache2/conf (extra/ and original/ included), the Debian image's /etc/apache2 and, with a baseline,
// the 2.2 image's conf is copied out of the image at test time, loaded, evaluated for that image's version with
// its compiled-in modules (from the main file, and each file it does not read on its own), and must give no
// problem of severity "error"; each file must print back byte for byte.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, posix } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { evaluateTree } from "../../../harness/conf/evaluate-tree.ts";
import { loadTree } from "../../../harness/conf/load-tree.ts";
import { parseFile } from "../../../harness/conf/parse-file.ts";
import { printFile } from "../../../harness/conf/print-file.ts";
import { mergeProblems } from "../../../harness/conf/queries/config-document.ts";
import { HarnessContainer } from "../../../harness/engine/container.ts";
import { connectEngine } from "../../../harness/engine/engine.ts";
import { RunScope } from "../../../harness/engine/run-scope.ts";
import { builtinSourceFiles } from "../../../harness/plan/tree/plan-tree-side.ts";
import { inspectImage } from "../../../harness/server/inspect-image.ts";
import { extractTar } from "../../helpers/extract-tar.ts";

const images = inject("images");
/** Data files beside the configuration, not read as configuration. */
const NOT_CONFIG = /(^|\/)(mime\.types|magic|envvars)$/;

interface ShippedTree {
  title: string;
  image: string | null;
  skip: string | null;
  /** The directory in the image. */
  path: string;
  layout: "official" | "debian";
  /** Files that must be among those copied out, so an empty copy cannot pass. */
  mustHold: string[];
}

const TREES: ShippedTree[] = [
  { title: "the 2.4 image's /usr/local/apache2/conf", image: images.candidate, skip: null, path: "/usr/local/apache2/conf", layout: "official", mustHold: ["conf/httpd.conf", "conf/extra/httpd-ssl.conf", "conf/extra/httpd-vhosts.conf"] },
  { title: "the Debian image's /etc/apache2", image: images.debian, skip: null, path: "/etc/apache2", layout: "debian", mustHold: ["apache2/apache2.conf", "apache2/envvars", "apache2/ports.conf"] },
  { title: "the 2.2 image's /usr/local/apache2/conf", image: images.baseline, skip: images.baselineMissingReason, path: "/usr/local/apache2/conf", layout: "official", mustHold: ["conf/httpd.conf", "conf/extra/httpd-ssl.conf", "conf/extra/httpd-vhosts.conf"] },
];

describe("the config trees the images ship", { timeout: 120_000 }, () => {
  let scope: RunScope;
  const temporary: string[] = [];
  beforeAll(async () => {
    scope = new RunScope(await connectEngine());
  });
  afterAll(async () => {
    await scope?.dispose();
    await Promise.all(temporary.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  for (const shipped of TREES) {
    it(`${shipped.title}: loaded and evaluated for the image's version with no error, every file printed back byte for byte`, async (context) => {
      if (shipped.image === null) return context.skip(shipped.skip ?? "no such image");
      const inspection = await inspectImage(scope, shipped.image);
      const container = await HarnessContainer.create(scope, { image: shipped.image, role: "probe", entrypoint: ["/bin/true"] });
      const dir = await mkdtemp(join(tmpdir(), "harness-image-conf-"));
      temporary.push(dir);
      let copied: string[];
      try {
        copied = await extractTar(await container.readArchive(shipped.path), dir);
      } finally {
        await container.remove();
      }
      expect(copied).toEqual(expect.arrayContaining(shipped.mustHold));

      const root = join(dir, posix.basename(shipped.path));
      const tree = await loadTree(shipped.layout === "official" ? dir : root, { layout: shipped.layout });
      expect(tree.mainFile).toBe(shipped.layout === "official" ? "conf/httpd.conf" : "apache2.conf");
      const builtinModules = builtinSourceFiles(inspection.builtinModules);
      const config = evaluateTree(tree, { version: inspection.version, defines: [], environment: {}, builtinModules });
      expect(config.files.length).toBeGreaterThan(0);
      const errors = mergeProblems(tree.problems, config.problems).filter((problem) => problem.severity === "error");
      expect(errors).toEqual([]);
      // The files the main file does not read (extra/, original/, mods-available/ ...) are what operators switch
      // on: each is evaluated as it would be read alone.
      const alone = [...tree.source.files.keys()].filter((path) => !config.files.includes(path) && !NOT_CONFIG.test(path));
      expect(alone.length).toBeGreaterThan(0);
      for (const path of alone) {
        const read = evaluateTree({ ...tree, mainFile: path }, { version: inspection.version, defines: [], environment: {}, builtinModules });
        expect(read.problems.filter((problem) => problem.severity === "error"), path).toEqual([]);
      }

      // Links are printed as the files they lead to; each regular file once.
      const differing: string[] = [];
      for (const [path, bytes] of tree.source.files) {
        const printed = printFile(parseFile(path, bytes));
        if (!printed.equals(bytes)) differing.push(path);
        // Read from disk again: the loader's bytes are the file's.
        expect((await readFile(join(shipped.layout === "official" ? dir : root, path))).equals(bytes)).toBe(true);
      }
      expect(tree.source.files.size).toBeGreaterThanOrEqual(shipped.mustHold.length);
      expect(differing).toEqual([]);
    });
  }
});
