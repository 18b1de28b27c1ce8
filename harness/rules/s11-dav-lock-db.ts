// S11: mod_dav_fs's lock database format changed on 2.4 (on systems with inodes): the DavLockDB file 2.2 left
// must be deleted before 2.4 starts. Nothing shows in a run of a fresh tree; a lint finding only.
import { detection, named } from "./detection.ts";
import type { Rule } from "./rule.ts";

export const S11: Rule = {
  id: "S11",
  seed: ["S11"],
  title: "the DavLockDB format changed on 2.4: delete the old lock database on upgrade",
  severity: "behaviour",
  detect: (context) =>
    named(context.source, "DavLockDB").map((entry) =>
      detection(
        entry,
        `2.4 cannot use 2.2's lock database ${entry.directive.args[0] ?? ""}: delete it (and its .dir/.pag files) when switching, or WebDAV locking fails`,
        `rm -f ${entry.directive.args[0] ?? "LOCKDB"}*  (with the server stopped, before starting 2.4)`,
      ),
    ),
  fix: "Stop 2.2, delete the DavLockDB files (FILE, FILE.dir, FILE.pag), then start 2.4: it creates a new database.",
  help: "Guide, changed semantics: the DavLockDB file format changed on systems with inodes; the old file must be deleted on upgrade.",
  sample: { config: "DavLockDB /tmp/DavLock", modules: ["dav", "dav_fs"], on24: "starts" },
};
