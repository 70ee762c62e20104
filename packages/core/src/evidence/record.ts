import * as v from 'valibot';
import { CHECK_ID } from '../verification/config.js';
import type { PlannedCheck } from '../verification/plan.js';
import { builtOnFirstUse } from '../built-on-first-use.js';

/** The folder of a work item that holds one evidence record per check: `evidence/<check-id>.json`. */
export const EVIDENCE_DIR = 'evidence';

/** A hash function the caller supplies (SHA-256, hex): core computes no digest itself. */
export type Sha256 = (text: string) => string;

/** Characters of a stream's output kept in a record when the whole does not fit: the head and the tail. */
export const EXCERPT_HEAD = 2_000;
export const EXCERPT_TAIL = 6_000;
// A record keeps the file-by-file digests of at most this many files; past it, their combined digest only.
export const MAX_LISTED_FILES = 200;

// Built on first use: most runs validate none of these (see builtOnFirstUse).
const schemas = builtOnFirstUse(() => {
  const hex = v.pipe(v.string(), v.regex(/^[0-9a-f]{40,64}$/, 'must be a hex digest'));
  const sha256 = v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/, 'must be a hex SHA-256 digest'));
  const count = v.pipe(v.number(), v.integer(), v.minValue(0));

  const StreamSchema = v.strictObject({
    sha256,
    bytes: count,
    /** The whole output when `complete`, else its head and tail around an omission line. */
    excerpt: v.string(),
    complete: v.boolean(),
  });

  const DependenciesSchema = v.strictObject({
    scope: v.picklist(['paths', 'repository']),
    /** The globs for `paths`; null for `repository`, every file git does not ignore outside the spec root. */
    paths: v.nullable(v.array(v.string())),
    objectFormat: v.picklist(['sha1', 'sha256']),
    count,
    /** SHA-256 over the sorted `path NUL object-id` lines of every file. */
    digest: sha256,
    /** Path → git object id of each file, when there are at most MAX_LISTED_FILES. */
    files: v.nullable(v.record(v.string(), v.string())),
  });

  const FingerprintSchema = v.strictObject({
    /** `platform-arch`, as the running Node reports them. */
    os: v.string(),
    node: v.string(),
    /** Environment files at the project root (lockfiles, version pins) → SHA-256 of their bytes. */
    files: v.record(v.string(), sha256),
  });

  const EvidenceRecordSchema = v.strictObject({
    schemaVersion: v.literal(1),
    kind: v.literal('evidence.v1'),
    workItem: v.string(),
    check: v.strictObject({
      id: v.pipe(v.string(), v.regex(CHECK_ID)),
      source: v.picklist(['config', 'testing-plan.md']),
      argv: v.pipe(v.array(v.string()), v.minLength(1)),
      expectExitCode: v.pipe(v.number(), v.integer()),
      timeoutSeconds: v.number(),
      covers: v.array(v.string()),
      paths: v.nullable(v.array(v.string())),
    }),
    run: v.strictObject({
      exitCode: v.nullable(v.pipe(v.number(), v.integer())),
      signal: v.nullable(v.string()),
      timedOut: v.boolean(),
      spawnError: v.nullable(v.string()),
      passed: v.boolean(),
      durationMs: v.pipe(v.number(), v.minValue(0)),
    }),
    output: v.strictObject({
      stdout: StreamSchema,
      stderr: StreamSchema,
      /** The runner stopped keeping output at its size limit; digests cover what was kept. */
      truncated: v.boolean(),
      /** Secrets replaced by `[REDACTED:<kind>]` before anything was digested or written. */
      redactions: count,
    }),
    dependencies: v.optional(v.nullable(DependenciesSchema)),
    git: v.strictObject({ commit: v.nullable(hex), dirty: v.boolean() }),
    tools: v.record(v.string(), v.string()),
    environment: FingerprintSchema,
    createdAt: v.pipe(v.string(), v.isoTimestamp('must be an ISO-8601 timestamp')),
    /** SHA-256 of the canonical JSON of every other field: an edit that does not recompute it is seen. */
    recordDigest: sha256,
  });
  return { StreamSchema, DependenciesSchema, FingerprintSchema, EvidenceRecordSchema };
});

/** What a run's dependencies were: the files it read, by git object id. */
export const DependenciesSchema = builtOnFirstUse(() => schemas.DependenciesSchema);

export const FingerprintSchema = builtOnFirstUse(() => schemas.FingerprintSchema);

/** `docs/specs/<id>/evidence/<check-id>.json` *(contract)*. */
export const EvidenceRecordSchema = builtOnFirstUse(() => schemas.EvidenceRecordSchema);

export type EvidenceRecord = v.InferOutput<typeof EvidenceRecordSchema>;
export type Dependencies = v.InferOutput<typeof DependenciesSchema>;
export type Fingerprint = v.InferOutput<typeof FingerprintSchema>;
export type StreamOutput = v.InferOutput<(typeof schemas)['StreamSchema']>;
export type RunOutcome = EvidenceRecord['run'];

/** A record as read from disk: usable, or the reason it is rejected. */
export type RecordRead = { readonly record: EvidenceRecord } | { readonly invalid: string };

/** Whether a run passed: it started, was not killed or timed out, and exited with the expected code. */
export function runPassed(run: Omit<RunOutcome, 'passed' | 'durationMs'>, expectExitCode: number): boolean {
  return run.spawnError === null && run.signal === null && !run.timedOut && run.exitCode === expectExitCode;
}

/** How a recorded run ended, in words: `exit 1 (expected 0)`, `timed out after 5 s`, `pnpm was not found`. */
export function describeRun(record: Pick<EvidenceRecord, 'run' | 'check'>): string {
  const { run, check } = record;
  if (run.spawnError === 'not-found') return `${check.argv[0]} was not found`;
  if (run.spawnError !== null) return `${check.argv[0]} could not be started: ${run.spawnError}`;
  if (run.timedOut) return `timed out after ${check.timeoutSeconds} s`;
  if (run.exitCode === null) return `killed by ${run.signal ?? 'a signal'}`;
  return run.exitCode === check.expectExitCode ? `exit ${run.exitCode}` : `exit ${run.exitCode} (expected ${check.expectExitCode})`;
}

/** One stream's output as a record keeps it: its digest and size, and the whole text or its head and tail. */
export function streamOutput(text: string, hash: Sha256): StreamOutput {
  const bytes = utf8Length(text);
  if (text.length <= EXCERPT_HEAD + EXCERPT_TAIL) return { sha256: hash(text), bytes, excerpt: text, complete: true };
  const head = cut(text, EXCERPT_HEAD);
  const tail = text.slice(cut(text, text.length - EXCERPT_TAIL).length);
  const omitted = utf8Length(text.slice(head.length, text.length - tail.length));
  return { sha256: hash(text), bytes, excerpt: `${head}\n[… ${omitted} bytes omitted …]\n${tail}`, complete: false };
}

/** Everything a record says but its digest. */
export type RecordBody = Omit<EvidenceRecord, 'recordDigest' | 'schemaVersion' | 'kind'>;

/** A complete record, sealed with the digest of its canonical JSON. */
export function evidenceRecord(body: RecordBody, hash: Sha256): EvidenceRecord {
  const unsealed = { schemaVersion: 1 as const, kind: 'evidence.v1' as const, ...body };
  return { ...unsealed, recordDigest: hash(canonicalJson(unsealed)) };
}

/** The check part of a record, from the check as planned. */
export function recordedCheck(check: PlannedCheck): EvidenceRecord['check'] {
  return { id: check.id, source: check.source, argv: [...check.argv], expectExitCode: check.expectExitCode, timeoutSeconds: check.timeoutSeconds, covers: [...check.covers], paths: check.paths ? [...check.paths] : null };
}

/**
 * Read a record and decide whether it can be believed. It is rejected when it is not JSON or
 * not an evidence record, belongs to another work item or check, says `passed` against its own
 * exit code, holds a whole output whose digest or size does not match it, or was edited after
 * it was sealed (its digest no longer matches). A deliberate forger who recomputes every digest
 * is not caught here: see docs/verification.md for what this can and cannot show.
 */
export function readEvidenceRecord(text: string, expected: { workItem: string; checkId: string }, hash: Sha256): RecordRead {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { invalid: `it is not JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  const parsed = v.safeParse(EvidenceRecordSchema, value);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const where = (issue.path ?? []).map((p) => String(p.key)).join('.');
    return { invalid: `it is not an evidence.v1 record (${where ? `${where}: ` : ''}${issue.message})` };
  }
  const record = parsed.output;
  if (record.workItem !== expected.workItem) return { invalid: `it belongs to work item "${record.workItem}", not "${expected.workItem}"` };
  if (record.check.id !== expected.checkId) return { invalid: `it records check "${record.check.id}", not "${expected.checkId}"` };
  if (record.run.passed !== runPassed(record.run, record.check.expectExitCode)) {
    return { invalid: `it says passed: ${record.run.passed}, but its run ended with ${describeRun(record)}` };
  }
  for (const name of ['stdout', 'stderr'] as const) {
    const stream = record.output[name];
    if (stream.complete && (hash(stream.excerpt) !== stream.sha256 || utf8Length(stream.excerpt) !== stream.bytes)) {
      return { invalid: `its ${name} digest does not match the ${name} it records` };
    }
  }
  const { recordDigest, ...unsealed } = record;
  if (hash(canonicalJson(unsealed)) !== recordDigest) return { invalid: 'its content does not match its recordDigest: it was edited after the-loop wrote it' };
  return { record };
}

/** JSON with object keys sorted at every level: the same data always gives the same text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const encoder = new TextEncoder();

function utf8Length(text: string): number {
  return encoder.encode(text).length;
}

// The first `length` UTF-16 units, never splitting a surrogate pair.
function cut(text: string, length: number): string {
  const code = text.charCodeAt(length - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? length - 1 : length);
}
