import { resolve } from 'node:path';
import type { GraphNode, Reference } from '@the-loop/core';
import { readBytesIfPresent } from '../workspace/read-file.js';

/** A reference file is read whole into a prompt: larger than this, it is refused (split it). */
export const MAX_REFERENCE_BYTES = 64 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Read a node's reference material for its assignment through the one bounded reader: a
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
  let bytes: Buffer | undefined;
  try {
    bytes = await readBytesIfPresent(resolve(root, path), { within: root, maxBytes: MAX_REFERENCE_BYTES });
  } catch (error) {
    throw problem(`cannot be read: ${(error as Error).message}`);
  }
  if (bytes === undefined) throw problem('does not exist');
  if (bytes.includes(0)) throw problem('is binary (it holds NUL bytes)');
  try {
    return utf8.decode(bytes);
  } catch {
    throw problem('is not valid UTF-8');
  }
}
