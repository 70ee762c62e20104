import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

/** The variable that marks every process a round started, down to the last grandchild. */
export const TREE_VARIABLE = 'THE_LOOP_PROCESS_TREE';

/** A mark for one process tree, put in its first process's environment: everything it starts inherits it. */
export function newTreeMark(): string {
  return `${process.pid}.${randomBytes(8).toString('hex')}`;
}

/**
 * Kill (SIGKILL) every process whose environment carries `mark`. A grandchild that called
 * `setsid` has left the process group a timeout kills, but it still carries the environment it
 * was started with; on Linux `/proc/<pid>/environ` shows it. Elsewhere, and for a process that
 * cleared its environment before exec, nothing is found (docs/critics.md says so). Returns how
 * many processes were signalled.
 */
export function killMarkedTree(mark: string): number {
  if (process.platform !== 'linux') return 0;
  const needle = Buffer.from(`${TREE_VARIABLE}=${mark}\0`);
  let killed = 0;
  // Twice: a process that forked while the first pass ran is found by the second.
  for (let pass = 0; pass < 2; pass += 1) {
    let names: string[];
    try {
      names = readdirSync('/proc');
    } catch {
      return killed;
    }
    for (const name of names) {
      const pid = Number(name);
      if (!Number.isInteger(pid) || pid === process.pid) continue;
      try {
        const environ = readFileSync(`/proc/${name}/environ`);
        const at = environ.indexOf(needle);
        if (at === -1 || (at > 0 && environ[at - 1] !== 0)) continue;
        process.kill(pid, 'SIGKILL');
        killed += 1;
      } catch {
        // Gone already, or another user's process: not ours to read or kill.
      }
    }
  }
  return killed;
}
