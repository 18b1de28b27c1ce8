// A tar stream (a container's files, `docker cp` out) written under a host directory: files with their modes,
// directories, and symbolic links as they are (the configuration loader records links, never follows them).
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { extract } from "tar-stream";

export async function extractTar(stream: NodeJS.ReadableStream, into: string): Promise<string[]> {
  const written: string[] = [];
  const root = resolve(into);
  const unpack = extract();
  const done = (async () => {
    for await (const entry of unpack) {
      const { name, type, mode, linkname } = entry.header;
      const target = resolve(join(root, name));
      if (target !== root && !target.startsWith(`${root}/`)) throw new Error(`tar entry ${name} leads out of ${root}`);
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      if (type === "directory") await mkdir(target, { recursive: true });
      else if (type === "file") {
        await mkdir(dirname(target), { recursive: true });
        await writeFile(target, Buffer.concat(chunks), { mode: (mode ?? 0o644) & 0o777 });
        written.push(name);
      } else if (type === "symlink" && linkname) {
        await mkdir(dirname(target), { recursive: true });
        await symlink(linkname, target);
        written.push(name);
      }
    }
  })();
  stream.pipe(unpack);
  await done;
  return written;
}
