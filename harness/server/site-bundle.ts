import { pack } from "tar-stream";

export interface BundleFile {
  /** Absolute path inside the container. */
  path: string;
  content: string | Buffer;
  mode?: number;
}

// One fixed mtime for every staged file, so both sides serve the same Last-Modified and the mtime part of
// an ETag, and a difference there is the server's, not the staging's.
export const STAGED_MTIME = new Date("2026-01-01T00:00:00Z");

/** Packs files into a tar archive (extracted at / before the container starts). No directory entries: the
 * engine creates missing parents 0755, and existing ones (/tmp's sticky bit) keep their modes. */
export async function packBundle(files: BundleFile[]): Promise<Buffer> {
  const archive = pack();
  for (const file of files) {
    archive.entry({ name: file.path.replace(/^\/+/, ""), mode: file.mode ?? 0o644, mtime: STAGED_MTIME }, Buffer.from(file.content));
  }
  archive.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of archive) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The most base64 a bundle may take to travel in the server's command line: one argument holds at most 128 KiB
 * (Linux's MAX_ARG_STRLEN), and the start script shares that room with nothing else. */
export const INLINE_BUNDLE_LIMIT = 120 * 1024;

/** The bundle as base64, to be extracted by the server's own start script (start-script.ts stagingLines), or null
 * when it is too large for a command line and goes by the engine's archive copy instead. The copy costs the engine
 * a dockerd started anew for each container (its chrooted untar): about as much CPU as starting the server. */
export function inlineBundle(bundle: Buffer): string | null {
  const text = bundle.toString("base64");
  return text.length <= INLINE_BUNDLE_LIMIT ? text : null;
}
