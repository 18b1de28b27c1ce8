import { gzipSync } from "node:zlib";
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

/** A bundle as it travels in the server's command line: base64 of the tar archive, gzipped when it would not fit
 * otherwise. */
export interface InlineBundle {
  base64: string;
  gzip: boolean;
}

/** The bundle as base64, to be extracted by the server's own start script (start-script.ts stagingLines), or null
 * when it is too large for a command line and goes by the engine's archive copy instead. The copy costs the engine
 * a dockerd started anew for each container (its chrooted untar): about as much CPU as starting the server. A
 * tree of a few dozen small files already passes the limit as a plain archive (a 512-byte header and padding per
 * file): gzipped, where the image can unpack it (`gzip: false` where it cannot), it fits about ten times as much.
 * A bundle that fits as it is travels plain, needing no gzip in the image. */
export function inlineBundle(bundle: Buffer, options: { gzip: boolean } = { gzip: true }): InlineBundle | null {
  const text = bundle.toString("base64");
  if (text.length <= INLINE_BUNDLE_LIMIT) return { base64: text, gzip: false };
  if (!options.gzip) return null;
  const packed = gzipSync(bundle).toString("base64");
  return packed.length <= INLINE_BUNDLE_LIMIT ? { base64: packed, gzip: true } : null;
}
