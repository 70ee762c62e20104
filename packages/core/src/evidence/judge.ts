import type { Criterion } from '../verification/criteria.js';
import type { PlannedCheck, SetAside } from '../verification/plan.js';
import { describeRun, type Dependencies, type EvidenceRecord, type Fingerprint, type RecordRead } from './record.js';

/** The state a record is compared with, read by the CLI just before judging. */
export interface CurrentState {
  /** The files each check depends on now, by check id; a reason when they could not be read. */
  readonly dependencies: ReadonlyMap<string, Dependencies | { readonly unavailable: string }>;
  readonly environment: Fingerprint;
  readonly tools: Readonly<Record<string, string>>;
}

/** Where a check's evidence stands. `current` is the only status that proves anything. */
export type EvidenceStatus = 'current' | 'failing' | 'stale' | 'invalid' | 'missing';

export interface CheckEvidence {
  readonly check: PlannedCheck;
  readonly status: EvidenceStatus;
  /** The record, when one could be read and believed. */
  readonly record: EvidenceRecord | undefined;
  /** Why it is not current: how the run ended, what changed, why the record was rejected. */
  readonly reasons: readonly string[];
}

// Listed by name in a reason; the rest are counted.
const NAMED = 5;

/**
 * Judge one check's evidence. Missing: no record. Invalid: the record cannot be believed.
 * Failing: the run did not pass. Stale: it passed, but the declaration, a file it depends on,
 * the environment or a tool version changed since, or the record holds no dependency
 * information, or the state now cannot be read (fail closed). Current: none of these.
 */
export function judgeCheck(check: PlannedCheck, read: RecordRead | undefined, current: CurrentState | { readonly unavailable: string }): CheckEvidence {
  if (read === undefined) return { check, status: 'missing', record: undefined, reasons: ['no run has been recorded'] };
  if ('invalid' in read) return { check, status: 'invalid', record: undefined, reasons: [`the record is rejected: ${read.invalid}`] };
  const { record } = read;
  const changes = staleness(check, record, current);
  if (!record.run.passed) return { check, status: 'failing', record, reasons: [describeRun(record), ...changes] };
  if (changes.length > 0) return { check, status: 'stale', record, reasons: changes };
  return { check, status: 'current', record, reasons: [] };
}

function staleness(check: PlannedCheck, record: EvidenceRecord, current: CurrentState | { readonly unavailable: string }): string[] {
  const reasons: string[] = [];
  const declared = record.check;
  if (JSON.stringify(declared.argv) !== JSON.stringify(check.argv)) reasons.push(`its argv is now ${JSON.stringify(check.argv)}; it ran ${JSON.stringify(declared.argv)}`);
  if (declared.expectExitCode !== check.expectExitCode) reasons.push(`it now expects exit ${check.expectExitCode}; the run was judged against ${declared.expectExitCode}`);
  if (JSON.stringify(declared.paths) !== JSON.stringify(check.paths ?? null)) reasons.push('the paths it depends on were declared differently when it ran');
  if ('unavailable' in current) return [...reasons, `the repository's state cannot be read to compare with: ${current.unavailable}`];
  const dependencies = current.dependencies.get(check.id);
  if (!record.dependencies) reasons.push('the record holds no dependency information');
  else if (!dependencies) reasons.push('the files it depends on were not read');
  else if ('unavailable' in dependencies) reasons.push(`the files it depends on cannot be read: ${dependencies.unavailable}`);
  else if (record.dependencies.digest !== dependencies.digest || record.dependencies.objectFormat !== dependencies.objectFormat) reasons.push(filesChanged(record.dependencies, dependencies));
  reasons.push(...environmentChanged(record.environment, current.environment));
  for (const [tool, version] of Object.entries(current.tools)) {
    if (record.tools[tool] !== version) reasons.push(`${tool} is ${version}; the run used ${record.tools[tool] ?? 'none'}`);
  }
  return reasons;
}

function filesChanged(then: Dependencies, now: Dependencies): string {
  if (!then.files || !now.files || then.objectFormat !== now.objectFormat) {
    return `the ${now.count} file${now.count === 1 ? '' : 's'} it depends on differ from the ${then.count} it ran against`;
  }
  const changed = diffMaps(then.files, now.files);
  return `${changed.length} file${changed.length === 1 ? '' : 's'} it depends on changed: ${named(changed)}`;
}

function environmentChanged(then: Fingerprint, now: Fingerprint): string[] {
  const reasons: string[] = [];
  if (then.os !== now.os) reasons.push(`the OS is ${now.os}; it ran on ${then.os}`);
  if (then.node !== now.node) reasons.push(`Node is ${now.node}; it ran on ${then.node}`);
  const files = diffMaps(then.files, now.files);
  if (files.length > 0) reasons.push(`environment file${files.length === 1 ? '' : 's'} changed: ${named(files)}`);
  return reasons;
}

// `path (changed|added|removed)` for every key whose value differs.
function diffMaps(then: Readonly<Record<string, string>>, now: Readonly<Record<string, string>>): string[] {
  const keys = [...new Set([...Object.keys(then), ...Object.keys(now)])].sort();
  return keys.flatMap((key) => {
    if (then[key] === now[key]) return [];
    return [`${key} (${then[key] === undefined ? 'added' : now[key] === undefined ? 'removed' : 'changed'})`];
  });
}

function named(items: readonly string[]): string {
  return items.length <= NAMED ? items.join(', ') : `${items.slice(0, NAMED).join(', ')} and ${items.length - NAMED} more`;
}

/** A criterion's standing in a completion proof *(contract: completion.v1)*. */
export type CriterionStatus = 'VERIFIED' | 'PARTIAL' | 'UNVERIFIED' | 'NOT_APPLICABLE';

export interface CriterionVerdict {
  readonly criterion: Criterion;
  readonly status: CriterionStatus;
  /** The checks that cover it for this work item, whatever their evidence says. */
  readonly evidence: readonly string[];
  /** The reason it is not applicable, as the testing plan gives it. */
  readonly notApplicable: SetAside | undefined;
  /** What keeps it from VERIFIED, worst first: the status of the evidence that fails it. */
  readonly cause: Exclude<EvidenceStatus, 'current'> | undefined;
  readonly reasons: readonly string[];
}

// A criterion's cause is its worst covering check's: a failure outweighs doubt about a record.
const WORST_FIRST: readonly Exclude<EvidenceStatus, 'current'>[] = ['failing', 'invalid', 'stale', 'missing'];

/**
 * Judge one criterion. VERIFIED only when every check that covers it has current, passing
 * evidence; PARTIAL when some do and none fails; UNVERIFIED when a covering check fails, none
 * is current, or nothing covers it; NOT_APPLICABLE when the testing plan sets it aside with a
 * reason. A ticked task or a claim in prose never enters.
 */
export function judgeCriterion(criterion: Criterion, checks: readonly CheckEvidence[], notApplicable: readonly SetAside[]): CriterionVerdict {
  const covering = checks.filter((c) => c.check.covers.includes(criterion.id));
  const evidence = covering.map((c) => c.check.id);
  const aside = notApplicable.find((n) => n.id === criterion.id);
  if (aside) return { criterion, status: 'NOT_APPLICABLE', evidence, notApplicable: aside, cause: undefined, reasons: [] };
  if (covering.length === 0) return { criterion, status: 'UNVERIFIED', evidence, notApplicable: undefined, cause: 'missing', reasons: ['no declared check covers it'] };
  const cause = WORST_FIRST.find((status) => covering.some((c) => c.status === status));
  const reasons = covering.filter((c) => c.status !== 'current').map((c) => `${c.check.id}: ${c.status} (${c.reasons.join('; ')})`);
  if (cause === undefined) return { criterion, status: 'VERIFIED', evidence, notApplicable: undefined, cause, reasons };
  const someCurrent = covering.some((c) => c.status === 'current');
  return { criterion, status: someCurrent && cause !== 'failing' ? 'PARTIAL' : 'UNVERIFIED', evidence, notApplicable: undefined, cause, reasons };
}
