import { join } from 'node:path';
import picomatch from 'picomatch/posix.js';
import { EVIDENCE_DIR, GRAPH_STATE_FILE, MAX_LISTED_FILES, type CurrentState, type Dependencies, type Fingerprint, type PlannedCheck } from '@the-loop/core';
import { VERSION } from '../version.js';
import { readRepositoryFiles, type RepositoryFiles } from '../git/repository-files.js';
import { sha256 } from '../workspace/digest.js';
import { READ_LIMITS } from '../limits.js';
import { readBytesIfPresent } from '../workspace/read-file.js';
import type { Repo } from '../workspace/repo.js';


/** Tool versions a record is bound to besides the environment: the-loop's own. */
export function toolVersions(): Record<string, string> {
  return { 'the-loop': VERSION };
}

/**
 * The environment a check runs in: the OS and CPU architecture, the Node version, and the
 * SHA-256 of each environment file (lockfiles, version pins) present at the project root.
 */
export async function environmentFingerprint(repo: Repo): Promise<Fingerprint> {
  const files: Record<string, string> = {};
  for (const name of [...repo.config.verification.environmentFiles].sort()) {
    const digest = await fileDigest(join(repo.root, name));
    if (digest !== undefined) files[name] = digest;
  }
  return { os: `${process.platform}-${process.arch}`, node: process.version, files };
}

/**
 * The files a check depends on, with their object ids now: its `paths` globs (`!` excludes),
 * or, when it declares none, every file git does not ignore outside the spec root and
 * `.the-loop/`. the-loop's own records (evidence folders, graph state) are never dependencies,
 * so recording one check's evidence cannot make another's stale.
 */
export function dependenciesOf(snapshot: RepositoryFiles, check: Pick<PlannedCheck, 'paths'>, specDir: string): { dependencies: Dependencies; paths: string[] } {
  const own = picomatch([`${specDir}/*/${EVIDENCE_DIR}/**`, `${specDir}/*/${GRAPH_STATE_FILE}`], { dot: true });
  const include = check.paths
    ? picomatch(check.paths.filter((g) => !g.startsWith('!')), { dot: true })
    : (path: string) => !path.startsWith(`${specDir}/`) && !path.startsWith('.the-loop/');
  const excludes = (check.paths ?? []).filter((g) => g.startsWith('!')).map((g) => g.slice(1));
  const exclude = excludes.length > 0 ? picomatch(excludes, { dot: true }) : () => false;
  const entries = [...snapshot.files].filter(([path]) => include(path) && !exclude(path) && !own(path)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    dependencies: {
      scope: check.paths ? 'paths' : 'repository',
      paths: check.paths ? [...check.paths] : null,
      objectFormat: snapshot.objectFormat,
      count: entries.length,
      digest: sha256(entries.map(([path, id]) => `${path}\0${id}\n`).join('')),
      files: entries.length <= MAX_LISTED_FILES ? Object.fromEntries(entries) : null,
    },
    paths: entries.map(([path]) => path),
  };
}

const snapshots = new WeakMap<Repo, Promise<RepositoryFiles>>();

/**
 * The state records are judged against: each check's dependencies, the environment, the
 * tool versions. Read once per command (a report over many work items reads git once). A
 * repository git cannot read leaves every record stale, never current.
 */
export async function currentState(repo: Repo, checks: readonly PlannedCheck[]): Promise<CurrentState | { unavailable: string }> {
  let snapshot: RepositoryFiles;
  try {
    let pending = snapshots.get(repo);
    if (!pending) {
      pending = readRepositoryFiles(repo.root);
      snapshots.set(repo, pending);
    }
    snapshot = await pending;
  } catch (error) {
    return { unavailable: error instanceof Error ? error.message : String(error) };
  }
  const dependencies = new Map(checks.map((check) => [check.id, dependenciesOf(snapshot, check, repo.config.specDir).dependencies]));
  return { dependencies, environment: await environmentFingerprint(repo), tools: toolVersions() };
}

// SHA-256 of an environment file's bytes; undefined when it is absent; what it is when it cannot be read.
async function fileDigest(path: string): Promise<string | undefined> {
  try {
    const bytes = await readBytesIfPresent(path, { maxBytes: READ_LIMITS.environmentFile, noLinks: true });
    return bytes === undefined ? undefined : sha256(bytes);
  } catch (error) {
    return sha256(`refused: ${(error as Error).message}`);
  }
}
