// Examples for the evidence rules and their tests: declared checks, records and the repository state now,
// in memory. Digests are stand-ins; the CLI's tests use real ones.
import type { CurrentState } from './judge.js';
import type { Dependencies, EvidenceRecord, Fingerprint, RecordRead } from './record.js';
import { defaultVerification, type CheckDeclaration } from '../verification/config.js';
import type { VerificationInput } from '../verification/view.js';

export const ENVIRONMENT: Fingerprint = { os: 'linux-x64', node: 'v20.0.0', files: { 'pnpm-lock.yaml': 'a'.repeat(64) } };
export const TOOLS = { 'the-loop': '0.1.0' };

/** A check with defaults: `unit` covering AC1. */
export function check(id = 'unit', covers: readonly string[] = ['AC1'], more: Partial<CheckDeclaration> = {}): CheckDeclaration {
  return { id, argv: ['node', '--test'], timeoutSeconds: 60, expectExitCode: 0, covers, paths: undefined, ...more };
}

/** The files a run depended on: `src/a.ts` at the given content id. */
export function files(content = '1'): Dependencies {
  const digest = content.padStart(64, '0').slice(-64);
  return { scope: 'repository', paths: null, objectFormat: 'sha1', count: 1, digest, files: null };
}

/** A sealed-looking record of a run of `of` (the seal is not checked in core's gate tests). */
export function record(of: CheckDeclaration, run: { exitCode?: number | null; content?: string } = {}): EvidenceRecord {
  const exitCode = run.exitCode === undefined ? 0 : run.exitCode;
  return {
    schemaVersion: 1,
    kind: 'evidence.v1',
    workItem: 'w',
    check: { id: of.id, source: 'config', argv: [...of.argv], expectExitCode: of.expectExitCode, timeoutSeconds: of.timeoutSeconds, covers: [...of.covers], paths: of.paths ? [...of.paths] : null },
    run: { exitCode, signal: null, timedOut: false, spawnError: null, passed: exitCode === of.expectExitCode, durationMs: 10 },
    output: { stdout: { sha256: '0'.repeat(64), bytes: 0, excerpt: '', complete: true }, stderr: { sha256: '0'.repeat(64), bytes: 0, excerpt: '', complete: true }, truncated: false, redactions: 0 },
    dependencies: files(run.content),
    git: { commit: 'c'.repeat(40), dirty: false },
    tools: { ...TOOLS },
    environment: ENVIRONMENT,
    createdAt: '2026-01-01T00:00:00.000Z',
    recordDigest: 'f'.repeat(64),
  };
}

/** Verification input: the declared checks, their records (a record, or the reason it is rejected), the files now at `content`. */
export function verification(checks: readonly CheckDeclaration[], records: Readonly<Record<string, EvidenceRecord | string>> = {}, content = '1'): { verification: VerificationInput } {
  const reads = new Map(Object.entries(records).map(([id, r]): [string, RecordRead] => [id, typeof r === 'string' ? { invalid: r } : { record: r }]));
  const current: CurrentState = { dependencies: new Map(checks.map((c) => [c.id, files(content)])), environment: ENVIRONMENT, tools: TOOLS };
  return { verification: { config: { ...defaultVerification(), checks }, configFile: '.the-loop/harness-config.yaml', records: reads, current } };
}

/** Every check declared and recorded passing, with the files unchanged since. */
export function verified(...checks: CheckDeclaration[]): { verification: VerificationInput } {
  return verification(checks, Object.fromEntries(checks.map((c) => [c.id, record(c)])));
}
