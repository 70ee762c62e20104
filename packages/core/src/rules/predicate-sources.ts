import { TASKS_FILE } from '../work-item/known-artifacts.js';
import type { Artifact } from '../artifact/types.js';
import type { CheckEvidence, CriterionVerdict, EvidenceStatus } from '../evidence/judge.js';
import type { Approval } from '../gate/inputs.js';
import type { PredicateContext } from './rule.js';

/** The file `tasksComplete` reads: the produced artifact, else tasks.md; undefined when neither can be read. */
export function tasksSource(ctx: PredicateContext): { name: string; artifact: Artifact } | undefined {
  return ctx.artifact ? { name: ctx.artifactName ?? TASKS_FILE, artifact: ctx.artifact } : ctx.lookup(TASKS_FILE);
}

/** What `approved: <names>` is about: the names it lists, and the first of them that can be read. */
export function approvalTarget(names: string, ctx: PredicateContext): { wanted: string[]; target: { name: string; artifact: Artifact } | undefined } {
  const wanted = names.split('|').map((name) => name.trim());
  return { wanted, target: wanted.map((name) => ctx.lookup(name)).find(Boolean) };
}

/** The command that records an approval of `name`: by `login` when one is named, else the repository's only approver. */
export function approveCommand(ctx: PredicateContext, name: string, login?: string): string {
  const [only, ...others] = ctx.approvers;
  return `\`the-loop graph approve ${ctx.workItem} ${name} --by ${login ?? (only !== undefined && others.length === 0 ? only : '<login>')}\``;
}

/**
 * Approvals of an artifact by approvers: the one bound to its current digest, and the latest of
 * the others. The digest, which hashes the file, is computed only when there is an approval to
 * compare it with (it is undefined otherwise).
 */
export function approvalsOf(name: string, ctx: PredicateContext): { fresh: Approval | undefined; stale: Approval | undefined; digest: string | undefined } {
  const records = ctx.approvals.filter((a) => a.artifact === name && ctx.approvers.has(a.by));
  if (records.length === 0) return { fresh: undefined, stale: undefined, digest: undefined };
  const digest = ctx.digests.get(name);
  return { fresh: records.find((a) => a.digest !== '' && a.digest === digest), stale: records[records.length - 1], digest };
}

/** A check's evidence record, as a finding names it. */
function evidenceFile(ctx: PredicateContext, checkId: string): string {
  return ctx.pathOf(`evidence/${checkId}.json`);
}

/** The checks whose evidence has `status`, each with the record a finding points at. */
export function checksWithStatus(ctx: PredicateContext, status: EvidenceStatus): { evidence: CheckEvidence; file: string }[] {
  return ctx
    .verification()
    .checks.filter((c) => c.status === status)
    .map((evidence) => ({ evidence, file: evidenceFile(ctx, evidence.check.id) }));
}

/** The criteria kept from VERIFIED by evidence of status `cause`, each with its covering checks of that status. */
export function criteriaFailedBy(ctx: PredicateContext, cause: Exclude<EvidenceStatus, 'current'>): { verdict: CriterionVerdict; checks: string[] }[] {
  const view = ctx.verification();
  return view.criteria
    .filter((c) => c.cause === cause)
    .map((verdict) => ({ verdict, checks: verdict.evidence.filter((id) => view.checks.some((k) => k.check.id === id && k.status === cause)) }));
}

/** The command a fix asks to run, for one check or all of them. */
export function verifyCommand(ctx: Pick<PredicateContext, 'workItem'>, checkId?: string): string {
  return `\`the-loop verify ${ctx.workItem}${checkId ? ` --check ${checkId}` : ''}\``;
}

/** Requirements with two EARS criteria (AC1 on line 5, AC2 on line 6), for the evidence rules' examples. */
export const REQUIREMENTS = '# Requirements\n\n## Acceptance criteria\n\n1. WHEN a name is given THEN the system SHALL greet it.\n2. IF no name is given THEN the system SHALL greet the world.\n';
