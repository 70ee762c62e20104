import { closeSync, openSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { lstatOrNone, readIfPresent, UnreadableFile } from '../workspace/read-file.js';
import { UsageError } from '../errors.js';

// Loaded on first use: a run that takes no lock does not load the module.
function hostname(): string {
  return process.getBuiltinModule('node:os').hostname();
}

export interface LockOptions {
  /** How long to wait for another holder before giving up. */
  readonly timeoutMs?: number;
  /** A lock older than this is taken over even if its holder looks alive. */
  readonly staleMs?: number;
  /** Where the wait starts; injected by tests. */
  readonly retryMs?: number;
}

const DEFAULTS = { timeoutMs: 10_000, staleMs: 120_000, retryMs: 20 };

/**
 * Run `fn` holding an exclusive lock file (created with O_EXCL). A lock whose holder process
 * is gone, or that is older than `staleMs`, is stale and taken over; otherwise the wait is
 * bounded and ends in a clear error naming the holder.
 */
export async function withLock<T>(lockPath: string, label: string, fn: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const { timeoutMs, staleMs, retryMs } = { ...DEFAULTS, ...options };
  const deadline = Date.now() + timeoutMs;
  const me = `${process.pid} ${hostname()} ${new Date().toISOString()}\n`;
  for (let wait = retryMs; ; wait = Math.min(wait * 2, 200)) {
    // Synchronous: a lock nobody holds, as almost every one is, is taken without starting
    // libuv's threads or loading the promise API of the file system.
    try {
      const fd = openSync(lockPath, 'wx', 0o644);
      try {
        writeSync(fd, me);
      } finally {
        closeSync(fd);
      }
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = await readHolder(lockPath);
    if (holder === 'foreign') {
      // the-loop only ever makes a small regular file here; a FIFO, a folder or a link is no lock.
      rmSync(lockPath, { recursive: true, force: true });
      continue;
    }
    if (holder && isStale(holder, staleMs)) {
      // Remove only the lock we judged stale: a fresh holder's file has another mtime.
      const again = await readHolder(lockPath);
      if (again && again !== 'foreign' && again.mtimeMs === holder.mtimeMs) removeLock(lockPath);
      continue;
    }
    if (Date.now() >= deadline) {
      const who = holder ? `process ${holder.pid} on ${holder.host}` : 'another process';
      throw new UsageError(`${label} is locked by ${who} (${lockPath}); gave up after ${timeoutMs / 1000} s. If no the-loop command is running, delete the lock file.`);
    }
    await new Promise((resolve) => setTimeout(resolve, wait + Math.floor(Math.random() * retryMs)));
  }
  try {
    return await fn();
  } finally {
    removeLock(lockPath);
  }
}

// The lock file, gone whoever removed it (`unlink`: `rm` loads a module of its own for folders).
function removeLock(lockPath: string): void {
  try {
    unlinkSync(lockPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

interface Holder {
  readonly pid: number;
  readonly host: string;
  readonly mtimeMs: number;
}

async function readHolder(lockPath: string): Promise<Holder | 'foreign' | undefined> {
  const info = lstatOrNone(lockPath);
  if (info === undefined) return undefined;
  if (!info.isFile()) return 'foreign';
  try {
    const text = await readIfPresent(lockPath, { maxBytes: 4096 });
    if (text === undefined) return undefined;
    const [pid, host] = text.trim().split(/\s+/);
    return { pid: Number(pid), host: host ?? '', mtimeMs: info.mtimeMs };
  } catch (error) {
    return error instanceof UnreadableFile ? 'foreign' : undefined;
  }
}

function isStale(holder: Holder, staleMs: number): boolean {
  if (Date.now() - holder.mtimeMs > staleMs) return true;
  // A half-written lock (no pid yet) is young by definition: wait for it.
  if (!Number.isInteger(holder.pid) || holder.pid <= 0) return false;
  if (holder.host !== hostname()) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
