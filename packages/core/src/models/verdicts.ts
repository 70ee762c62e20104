import type { CriticDeclaration } from '../config/reviews.js';
import type { HarnessAdapter } from '../harness/adapter.js';
import { parseJsonObject } from '../json/parse-json.js';
import type { ProcessResult } from '../process/process.js';

/** ok: the model answered · refused: the harness ran and refused · unknown: no answer either way. */
export type VerdictKind = 'ok' | 'refused' | 'unknown';

/** Why a verdict is what it is, as a stable code beside the human message. */
export type VerdictReason = 'answered' | 'model-refused' | 'flag-rejected' | 'api-error' | 'binary-missing' | 'timeout' | 'spawn-failed' | 'killed';

export interface ModelVerdict {
  readonly harness: string;
  readonly model: string;
  readonly verdict: VerdictKind;
  readonly reason: VerdictReason;
  readonly message: string;
  /** SHA-256 of the argv the probe ran; a verdict for another argv does not apply. */
  readonly argvDigest: string;
  readonly checkedAt: string;
}

/** A harness/model pair to probe. An unset model is probed as the harness default. */
export interface ModelPair {
  readonly harness: string;
  readonly model: string | undefined;
}

/** The prompt a probe sends: tiny, so a probe costs next to nothing. */
export const PROBE_PROMPT = 'Reply with the single word: ok';

/** Every distinct harness/model pair the critics declare on a built-in harness, in declaration order. */
export function declaredModelPairs(critics: readonly CriticDeclaration[], adapters: readonly Pick<HarnessAdapter, 'name'>[]): ModelPair[] {
  const pairs: ModelPair[] = [];
  for (const critic of critics) {
    if (critic.command !== undefined || critic.harness === undefined) continue;
    if (!adapters.some((adapter) => adapter.name === critic.harness)) continue;
    if (pairs.some((pair) => pair.harness === critic.harness && pair.model === critic.model)) continue;
    pairs.push({ harness: critic.harness, model: critic.model });
  }
  return pairs;
}

/** The cache key of a pair. */
export function verdictKey(pair: ModelPair): string {
  return `${pair.harness}/${pair.model ?? 'default'}`;
}

/**
 * Read a probe. A harness that rejects one of the-loop's own flags (`unknown option`) is
 * not refusing the model: that is a defect in the adapter, reported as `unknown` with
 * reason `flag-rejected` naming the flag, so it is never mistaken for a refusal.
 */
export function classifyProbe(observation: Pick<ProcessResult, 'spawnError' | 'timedOut' | 'exitCode' | 'stdout' | 'stderr'>, adapter: Pick<HarnessAdapter, 'binary' | 'parseResult'>): { verdict: VerdictKind; reason: VerdictReason; message: string } {
  if (observation.spawnError === 'not-found') return { verdict: 'unknown', reason: 'binary-missing', message: `${adapter.binary} is not on PATH` };
  if (observation.spawnError !== undefined) return { verdict: 'unknown', reason: 'spawn-failed', message: observation.spawnError };
  if (observation.timedOut) return { verdict: 'unknown', reason: 'timeout', message: 'the probe timed out' };
  // Ended by a signal from outside (no exit code): the harness said nothing about the model.
  if (observation.exitCode === null) return { verdict: 'unknown', reason: 'killed', message: 'the probe was ended by a signal before it answered' };
  const flag = /unknown option '([^']*)'/.exec(observation.stderr) ?? /unknown option "([^"]*)"/.exec(observation.stderr);
  if (flag) {
    return { verdict: 'unknown', reason: 'flag-rejected', message: `${adapter.binary} rejected the flag ${flag[1]} that the-loop passed; the adapter's argv is wrong, not the model` };
  }
  const result = adapter.parseResult(observation.stdout, observation.exitCode ?? 1);
  if (observation.exitCode === 0 && !result.isError) return { verdict: 'ok', reason: 'answered', message: 'the model answered' };
  const said = firstLine(result.isError && result.text.trim() !== '' ? result.text : observation.stderr) || `exit code ${observation.exitCode ?? 'none'}`;
  // A bad key, a rate limit or an overloaded service says nothing about the model, and a
  // cached refusal would outlive it.
  if (result.apiErrorStatus !== null && !MODEL_STATUSES.has(result.apiErrorStatus)) {
    return { verdict: 'unknown', reason: 'api-error', message: `the model API answered ${result.apiErrorStatus}, which is not about the model: ${said}` };
  }
  return { verdict: 'refused', reason: 'model-refused', message: said };
}

// API statuses that speak about the model: invalid for the request, not permitted, not found.
const MODEL_STATUSES: ReadonlySet<number> = new Set([400, 403, 404]);

function firstLine(text: string): string {
  return (text.trim().split(/\r?\n/, 1)[0] ?? '').slice(0, 300);
}

/** The verdict file's shape (`.the-loop/local/model-verdicts.json`). */
export interface VerdictFile {
  readonly schemaVersion: 1;
  readonly verdicts: Readonly<Record<string, ModelVerdict>>;
}

/** Read the verdict file; anything unreadable is an empty cache (it is re-probed, never trusted). */
export function parseVerdictFile(text: string | undefined): Record<string, ModelVerdict> {
  const parsed = text === undefined ? undefined : parseJsonObject(text, 'the verdict file');
  if (!parsed?.ok) return {};
  const value = parsed.value as Partial<VerdictFile>;
  if (value.schemaVersion !== 1 || value.verdicts === null || typeof value.verdicts !== 'object') return {};
  const verdicts: Record<string, ModelVerdict> = {};
  for (const [key, entry] of Object.entries(value.verdicts)) {
    if (entry && typeof entry.argvDigest === 'string' && ['ok', 'refused', 'unknown'].includes(entry.verdict)) verdicts[key] = entry;
  }
  return verdicts;
}

/** A cached verdict, only when it was taken against this exact argv (decision 012: a changed flag invalidates it). */
export function cachedVerdict(cache: Readonly<Record<string, ModelVerdict>>, pair: ModelPair, argvDigest: string): ModelVerdict | undefined {
  const entry = cache[verdictKey(pair)];
  return entry !== undefined && entry.argvDigest === argvDigest ? entry : undefined;
}

/** The argv a digest is taken over: the binary and its arguments, unambiguously joined. */
export function argvForDigest(binary: string, args: readonly string[]): string {
  return JSON.stringify([binary, ...args]);
}
