import * as v from 'valibot';
import { builtOnFirstUse } from '../built-on-first-use.js';

// Built on first use: most runs validate none of these (see builtOnFirstUse).
const schemas = builtOnFirstUse(() => {
  const text = v.pipe(v.string(), v.minLength(1));
  const instant = v.pipe(v.string(), v.isoTimestamp());

  const InFlightSchema = v.strictObject({
    schemaVersion: v.literal(1),
    workItem: text,
    node: text,
    requestId: text,
    harness: text,
    /** The executable the harness runs as: a pid is only taken for this run's harness if its command line names it. */
    binary: text,
    startedAt: instant,
    /** The harness process (and its process group), once started; null before. */
    pid: v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1))),
    /** The machine the run ran on: a pid means nothing on another one. */
    host: text,
  });

  const SessionRecordSchema = v.strictObject({ harness: text, node: text, sessionId: text, at: instant });

  const SessionsSchema = v.strictObject({ schemaVersion: v.literal(1), workItems: v.record(v.string(), SessionRecordSchema) });
  return { InFlightSchema, SessionRecordSchema, SessionsSchema };
});

/**
 * `.the-loop/local/in-flight/<work item>.json`: an attempt a run has started and not yet
 * recorded. Written before the harness starts and removed once the attempt is in graph state,
 * so a run killed in between leaves it behind for the next run to find.
 */
export const InFlightSchema = builtOnFirstUse(() => schemas.InFlightSchema);

/** One work item's latest harness session on this machine, which `session: inherit` resumes. */
export const SessionRecordSchema = builtOnFirstUse(() => schemas.SessionRecordSchema);

/** `.the-loop/local/sessions.json`: the latest session per work item. Machine-local: a session id means nothing elsewhere. */
export const SessionsSchema = builtOnFirstUse(() => schemas.SessionsSchema);

export type InFlight = v.InferOutput<typeof InFlightSchema>;

export type SessionRecord = v.InferOutput<typeof SessionRecordSchema>;
export type Sessions = v.InferOutput<typeof SessionsSchema>;

/** The session a node's harness run resumes: the work item's latest one, when the node inherits and it ran on the same harness. */
export function sessionToResume(session: 'fresh' | 'inherit' | undefined, latest: SessionRecord | undefined, harness: string): string | undefined {
  return session === 'inherit' && latest?.harness === harness ? latest.sessionId : undefined;
}

/** A request id: what a caller retries a run with, and a file name under `.the-loop/local/runs/`. */
export function requestIdProblem(id: string): string | undefined {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(id) && !id.includes('..') ? undefined : `--request-id "${id}" must be 1–128 letters, digits, ".", "_" or "-", starting with a letter or digit`;
}
