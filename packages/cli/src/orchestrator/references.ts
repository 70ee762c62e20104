import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { GraphNode, Reference } from '@the-loop/core';

/** A reference file is read whole into a prompt: larger than this, it is refused (split it). */
export const MAX_REFERENCE_BYTES = 64 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Read a node's reference material for its assignment. Every file is hostile: it must be a
 * regular file inside the repository once links are followed (not a FIFO, a device or a path
 * out of the tree), at most MAX_REFERENCE_BYTES, and UTF-8 text. Throws an Error naming the
 * node and the path otherwise.
 */
export async function readReferences(root: string, node: GraphNode): Promise<Reference[]> {
  const references: Reference[] = [];
  for (const path of node.references ?? []) references.push({ path, text: await readReference(root, node.id, path) });
  return references;
}

async function readReference(root: string, nodeId: string, path: string): Promise<string> {
  const problem = (why: string) => new Error(`reference ${path} of node "${nodeId}" ${why}`);
  let real: string;
  try {
    real = await realpath(resolve(root, path));
  } catch {
    throw problem('does not exist');
  }
  const inside = relative(await realpath(root), real);
  if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) throw problem('leads out of the repository');
  // Opened without blocking, so a FIFO cannot hold the run; then judged by what was opened.
  const handle = await open(real, constants.O_RDONLY | constants.O_NONBLOCK).catch((error: NodeJS.ErrnoException) => {
    throw problem(`cannot be opened: ${error.code ?? error.message}`);
  });
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw problem('is not a regular file');
    if (info.size > MAX_REFERENCE_BYTES) throw problem(`is ${info.size} bytes; a reference holds at most ${MAX_REFERENCE_BYTES}`);
    const bytes = await handle.readFile();
    if (bytes.length > MAX_REFERENCE_BYTES) throw problem(`is over ${MAX_REFERENCE_BYTES} bytes`);
    if (bytes.includes(0)) throw problem('is binary (it holds NUL bytes)');
    try {
      return utf8.decode(bytes);
    } catch {
      throw problem('is not valid UTF-8');
    }
  } finally {
    await handle.close();
  }
}
