import { workItemIdProblem } from '@the-loop/core';

/**
 * Where an edited file sits relative to the spec root: its work item and repo-relative
 * path, or undefined for a write outside the spec root (those pass silently).
 * `relative` is the file's path relative to the repository root, `/`-separated.
 */
export function editedArtifact(specDir: string, relative: string): { workItem: string; file: string } | undefined {
  const normal = relative.replace(/\\/g, '/').replace(/^\.\//, '');
  if (normal.startsWith('../') || normal.startsWith('/')) return undefined;
  const prefix = `${specDir.replace(/\/+$/, '')}/`;
  if (!normal.startsWith(prefix)) return undefined;
  const rest = normal.slice(prefix.length).split('/');
  if (rest.length < 2 || workItemIdProblem(rest[0] as string)) return undefined;
  return { workItem: rest[0] as string, file: normal };
}
