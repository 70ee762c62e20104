import { rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { InFlightSchema, SessionsSchema, parseJsonDocument, type InFlight, type SessionRecord, type Sessions } from '@the-loop/core';
import { configurationError } from '../errors.js';
import { formatJson } from '../format/json.js';
import { writeFileAtomic } from '../workspace/atomic-write.js';
import { READ_LIMITS } from '../limits.js';
import { readRepositoryFile } from '../workspace/read-file.js';
import type { Repo } from '../workspace/repo.js';
import { withLock } from '../state/lock.js';
import { LOCAL_DIR, localDir, withLocalLock } from '../state/local-state.js';

// Machine-local records of `the-loop run` under .the-loop/local/ (never committed): a session
// id or a process id means nothing on another machine, and a stored result is this caller's.
const IN_FLIGHT = 'in-flight';
const RUNS = 'runs';
const SESSIONS = 'sessions.json';

/**
 * Hold the work item's run lock while `fn` runs: one run per work item at a time. A lock whose
 * run is gone (killed, on this machine) is taken over; a live one refuses at once (exit 2).
 */
export async function withRunLock<T>(repo: Repo, id: string, fn: () => Promise<T>): Promise<T> {
  const dir = await localDir(repo.root, IN_FLIGHT);
  return withLock(join(dir, `${id}.lock`), `a run of ${id}`, fn, { timeoutMs: 0, staleMs: Number.POSITIVE_INFINITY });
}

/** The attempt an earlier run left unrecorded, if any. */
export async function readInFlight(repo: Repo, id: string): Promise<InFlight | undefined> {
  return readRecord(repo, `${IN_FLIGHT}/${id}.json`, InFlightSchema);
}

/** Record that an attempt is under way (and, once started, its harness's process). */
export async function writeInFlight(repo: Repo, marker: Omit<InFlight, 'schemaVersion' | 'host'>): Promise<void> {
  const dir = await localDir(repo.root, IN_FLIGHT);
  await writeFileAtomic(join(dir, `${marker.workItem}.json`), formatJson({ schemaVersion: 1, ...marker, host: hostname() }));
}

/** The attempt is in graph state now. */
export async function clearInFlight(repo: Repo, id: string): Promise<void> {
  await rm(join(repo.root, LOCAL_DIR, IN_FLIGHT, `${id}.json`), { force: true });
}

/** Whether an in-flight record's process can be signalled from here. */
export function onThisMachine(marker: InFlight): boolean {
  return marker.host === hostname();
}

/** The work item's latest harness session on this machine. */
export async function latestSession(repo: Repo, id: string): Promise<SessionRecord | undefined> {
  return (await readRecord(repo, SESSIONS, SessionsSchema))?.workItems[id];
}

/** Remember the session a harness run of the work item ran in. */
export async function recordSession(repo: Repo, id: string, record: SessionRecord): Promise<void> {
  await withLocalLock(repo.root, async (dir) => {
    const sessions: Sessions = (await readRecord(repo, SESSIONS, SessionsSchema)) ?? { schemaVersion: 1, workItems: {} };
    await writeFileAtomic(join(dir, SESSIONS), formatJson({ ...sessions, workItems: { ...sessions.workItems, [id]: record } }));
  });
}

/** The exact document a run with this request id printed, or undefined when there was none. */
export async function storedRun(repo: Repo, requestId: string): Promise<string | undefined> {
  const file = `${LOCAL_DIR}/${RUNS}/${requestId}.json`;
  return readRepositoryFile(join(repo.root, file), file, { within: repo.root, maxBytes: READ_LIMITS.local });
}

/** Keep a run's document under its request id, so a retry with the same id gets it back byte for byte. */
export async function storeRun(repo: Repo, requestId: string, document: string): Promise<void> {
  await writeFileAtomic(join(await localDir(repo.root, RUNS), `${requestId}.json`), document);
}

async function readRecord<S extends Parameters<typeof parseJsonDocument>[2]>(repo: Repo, name: string, schema: S) {
  const file = `${LOCAL_DIR}/${name}`;
  const text = await readRepositoryFile(join(repo.root, file), file, { within: repo.root, maxBytes: READ_LIMITS.local });
  if (text === undefined) return undefined;
  const parsed = parseJsonDocument(file, text, schema);
  if (!parsed.ok) throw configurationError(`${file} is not a record the-loop wrote (delete it to start afresh)`, parsed.issues);
  return parsed.value;
}
