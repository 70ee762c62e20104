import { editedArtifact } from './edited-artifact.js';

/**
 * The work items a set of changed paths touches: the first folder under the spec root.
 * A file directly in the spec root (its README) is not a work item, nor is a folder whose
 * name is not a valid id.
 */
export function touchedWorkItems(specDir: string, paths: readonly string[]): string[] {
  const ids = new Set<string>();
  for (const path of paths) {
    const id = editedArtifact(specDir, path)?.workItem;
    if (id !== undefined) ids.add(id);
  }
  return [...ids].sort();
}

/** One line git gives a pre-push hook on stdin. */
export interface PushUpdate {
  readonly localRef: string;
  readonly localSha: string;
  readonly remoteRef: string;
  readonly remoteSha: string;
}

const SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/** Whether a sha is git's all-zero "no object" (a new branch remotely, a deletion locally). */
export function isZeroSha(sha: string): boolean {
  return /^0+$/.test(sha);
}

/** Parse git's pre-push stdin. A malformed line is an error: the gate fails closed. */
export function parsePushUpdates(text: string): { ok: true; updates: PushUpdate[] } | { ok: false; error: string } {
  const updates: PushUpdate[] = [];
  const lines = text.split(/\r?\n/);
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    const parts = line.trim().split(/\s+/);
    const [localRef, localSha, remoteRef, remoteSha] = parts;
    if (parts.length !== 4 || !SHA.test(localSha!) || !SHA.test(remoteSha!)) {
      return { ok: false, error: `pre-push input line ${index + 1} is not "<local ref> <local sha> <remote ref> <remote sha>": ${JSON.stringify(line)}` };
    }
    updates.push({ localRef: localRef!, localSha: localSha!, remoteRef: remoteRef!, remoteSha: remoteSha! });
  }
  return { ok: true, updates };
}
