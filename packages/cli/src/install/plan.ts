import { chmod, mkdir, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../workspace/atomic-write.js';

/** One file change `hooks install` will make; all are planned (and validated) before any is applied. */
export type Change =
  | { readonly kind: 'write'; readonly path: string; readonly text: string; readonly mode?: number }
  | { readonly kind: 'rename'; readonly from: string; readonly to: string }
  | { readonly kind: 'remove'; readonly path: string };

/** Apply planned changes in order; every write is atomic. */
export async function applyChanges(changes: readonly Change[]): Promise<void> {
  for (const change of changes) {
    if (change.kind === 'write') {
      await mkdir(dirname(change.path), { recursive: true });
      // The mode is set before the rename: git skips a hook that is not executable, so a
      // pre-push briefly replaced by a 0644 file would let a push through unchecked.
      await writeFileAtomic(change.path, change.text, change.mode === undefined ? {} : { mode: change.mode });
      if (change.mode !== undefined) await chmod(change.path, change.mode);
    } else if (change.kind === 'rename') await rename(change.from, change.to);
    else await rm(change.path, { force: true });
  }
}
