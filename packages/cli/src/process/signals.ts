// What the CLI does when it is told to stop (Ctrl-C, a CI job cancelled, a closed terminal):
// the cleanups registered here run, then the process dies of the signal it got.

const FATAL: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
const cleanups = new Set<() => void>();

/**
 * Run `cleanup` if the CLI gets SIGINT, SIGTERM or SIGHUP before the returned release is
 * called: kill a child's process group, remove a scratch folder. Cleanups are synchronous,
 * because nothing after them runs; the process then dies of the same signal.
 */
export function onFatalSignal(cleanup: () => void): () => void {
  if (cleanups.size === 0) for (const signal of FATAL) process.on(signal, die);
  cleanups.add(cleanup);
  return () => {
    cleanups.delete(cleanup);
    if (cleanups.size === 0) for (const signal of FATAL) process.off(signal, die);
  };
}

function die(signal: NodeJS.Signals): void {
  for (const cleanup of [...cleanups].reverse()) {
    try {
      cleanup();
    } catch {
      // One cleanup failing must not keep the others from running.
    }
  }
  cleanups.clear();
  for (const fatal of FATAL) process.off(fatal, die);
  process.kill(process.pid, signal);
}
