import { realpath, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { parseJson, type HarnessAdapter } from '@the-loop/core';
import { UsageError } from '../errors.js';
import { git } from '../git/git.js';
import { formatJson } from '../format/json.js';
import { escapes, readIfPresent } from '../workspace/read-file.js';
import type { Change } from './plan.js';
import { CHAINED_SUFFIX, GIT_DEFAULT_LAUNCHER, isOwnPrePush, prePushScript } from './pre-push-script.js';

/** What installing (or removing) one harness's hooks would change, and a one-word verdict for people. */
export interface TargetPlan {
  /** A harness's name, or `git`. */
  readonly target: string;
  readonly file: string;
  readonly changes: Change[];
  readonly verdict: string;
}

/** Plan the JSON merge of a harness's hook file; invalid JSON is an error naming the file, nothing written. */
export async function planHarnessTarget(root: string, adapter: HarnessAdapter, uninstall: boolean, launcher: string | undefined): Promise<TargetPlan> {
  const { settings, name: target } = adapter;
  const file = settings.file;
  const path = join(root, file);
  await checkFolder(root, path, file);
  const before = await readIfPresent(path, { within: root }).catch((error: Error) => {
    throw new UsageError(`cannot read ${file}: ${error.message}; nothing was written`);
  });
  const parsed = before === undefined ? undefined : parseJson(before);
  if (parsed && !parsed.ok) throw new UsageError(`${file} is not valid JSON (${parsed.error}); fix it first, nothing was written`);
  const value = parsed?.value;
  if (uninstall && before === undefined) return { target, file, changes: [], verdict: 'not installed' };
  const merged = uninstall ? settings.uninstall(value) : settings.install(value, launcher ?? settings.defaultLauncher);
  if (!merged.ok) throw new UsageError(`${file}: ${merged.error}; fix it first, nothing was written`);
  const text = formatJson(merged.value);
  if (text === before) return { target, file, changes: [], verdict: uninstall ? 'not installed' : 'unchanged' };
  return { target, file, changes: [{ kind: 'write', path, text }], verdict: uninstall ? 'removed' : before === undefined ? 'created' : 'updated' };
}

// The folder a settings file goes in must be a folder inside the repository, or not exist yet:
// a file named `.claude` or a link to elsewhere stops the install before anything is written.
async function checkFolder(root: string, path: string, file: string): Promise<void> {
  for (let dir = dirname(path); dir.length >= root.length; dir = dirname(dir)) {
    const info = await stat(dir).catch(() => undefined);
    if (info === undefined) continue;
    const shown = relative(root, dir) || '.';
    if (!info.isDirectory()) throw new UsageError(`${shown} is not a folder, so ${file} cannot be written; nothing was written`);
    if (escapes(await realpath(root), await realpath(dir))) throw new UsageError(`${shown} leads out of the repository, so ${file} is not written there; nothing was written`);
    return;
  }
}

/** Where git looks for hooks here (honours core.hooksPath). */
export async function gitHooksDir(root: string): Promise<string> {
  return resolve(root, (await git(root, ['rev-parse', '--git-path', 'hooks'])).toString('utf8').trim());
}

/** Plan the pre-push script: a user's own hook is kept beside it and chained, never overwritten. */
export async function planGitTarget(root: string, uninstall: boolean, launcher: string | undefined): Promise<TargetPlan> {
  const dir = await gitHooksDir(root);
  const path = join(dir, 'pre-push');
  const chained = `${path}${CHAINED_SUFFIX}`;
  const file = relative(root, path).split('\\').join('/') || path;
  // git's hooks folder may lie outside the project (core.hooksPath, a worktree): read, but only regular files.
  const read = (hook: string) =>
    readIfPresent(hook).catch((error: Error) => {
      throw new UsageError(`cannot read ${hook}: ${error.message}; nothing was written`);
    });
  const current = await read(path);
  const kept = await read(chained);
  if (uninstall) {
    if (current === undefined || !isOwnPrePush(current)) return { target: 'git', file, changes: [], verdict: 'not installed' };
    const changes: Change[] = [{ kind: 'remove', path }];
    if (kept !== undefined) changes.push({ kind: 'rename', from: chained, to: path });
    return { target: 'git', file, changes, verdict: kept !== undefined ? 'removed (previous hook restored)' : 'removed' };
  }
  const script = prePushScript(launcher ?? GIT_DEFAULT_LAUNCHER);
  if (current === script) return { target: 'git', file, changes: [], verdict: 'unchanged' };
  if (current !== undefined && !isOwnPrePush(current)) {
    if (kept !== undefined) throw new UsageError(`${file} and ${file}${CHAINED_SUFFIX} both exist and neither is the-loop's; merge them by hand first, nothing was written`);
    return {
      target: 'git',
      file,
      changes: [{ kind: 'rename', from: path, to: chained }, { kind: 'write', path, text: script, mode: 0o755 }],
      verdict: `installed (your hook now runs after it from ${file}${CHAINED_SUFFIX})`,
    };
  }
  return { target: 'git', file, changes: [{ kind: 'write', path, text: script, mode: 0o755 }], verdict: current === undefined ? 'created' : 'updated' };
}
