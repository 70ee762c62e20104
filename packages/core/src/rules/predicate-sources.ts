import type { Artifact } from '../artifact/types.js';
import type { Approval } from '../gate/inputs.js';
import type { PredicateContext } from './rule.js';

/** The file `tasksComplete` reads: the produced artifact, else tasks.md; undefined when neither can be read. */
export function tasksSource(ctx: PredicateContext): { name: string; artifact: Artifact } | undefined {
  return ctx.artifact ? { name: ctx.artifactName ?? 'tasks.md', artifact: ctx.artifact } : ctx.lookup('tasks.md');
}

/** What `approved: <names>` is about: the names it lists, and the first of them that can be read. */
export function approvalTarget(names: string, ctx: PredicateContext): { wanted: string[]; target: { name: string; artifact: Artifact } | undefined } {
  const wanted = names.split('|').map((name) => name.trim());
  return { wanted, target: wanted.map((name) => ctx.lookup(name)).find(Boolean) };
}

/** Approvals of an artifact by approvers: the one bound to its current digest, and the latest of the others. */
export function approvalsOf(name: string, ctx: PredicateContext): { fresh: Approval | undefined; stale: Approval | undefined; digest: string | undefined } {
  const digest = ctx.digests.get(name);
  const records = ctx.approvals.filter((a) => a.artifact === name && ctx.approvers.has(a.by));
  return { fresh: records.find((a) => a.digest !== '' && a.digest === digest), stale: records[records.length - 1], digest };
}
