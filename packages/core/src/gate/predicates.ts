import { findSection } from '../artifact/find-section.js';
import type { Artifact } from '../artifact/types.js';
import { diagnostic, type Diagnostic, type Position } from '../diagnostic.js';
import type { GatePredicate, GraphNode } from '../graph/types.js';
import type { Approval } from './inputs.js';

/** What a predicate can look at: the produced artifact and, by name, any other. */
export interface PredicateContext {
  readonly node: GraphNode;
  /** The produced artifact (the present alternative), when the node produces one. */
  readonly artifact: Artifact | undefined;
  readonly artifactName: string | undefined;
  /** Another artifact of the work item by name; alternatives (`requirements.md|bugfix.md`) resolve to the present one. */
  readonly lookup: (name: string) => { name: string; artifact: Artifact } | undefined;
  readonly pathOf: (name: string) => string;
  readonly approvals: readonly Approval[];
  readonly digests: ReadonlyMap<string, string>;
  readonly approvers: ReadonlySet<string>;
}

const TOP: Position = { line: 1, column: 1 };
// Review outcomes that count as a round that ran; `unavailable` does not.
const COUNTING_OUTCOMES = ['new findings', 'new-findings', 'findings', 'zero', 'escalated', 'no new findings', 'converged'];

/** Evaluate one gate predicate; an empty list means it holds. */
export function evaluatePredicate(predicate: GatePredicate, ctx: PredicateContext): Diagnostic[] {
  if ('locked' in predicate) return locked(ctx);
  if ('frontMatter' in predicate) return frontMatter(predicate.frontMatter, ctx);
  if ('sections' in predicate) return sections(predicate.sections, ctx);
  if ('tasksComplete' in predicate) return tasksComplete(ctx);
  if ('boundariesFrom' in predicate) return boundaries(predicate.boundariesFrom, ctx);
  if ('reviewRounds' in predicate) return reviewRounds(predicate.reviewRounds, ctx);
  return approved(predicate.approved, ctx);
}

function locked(ctx: PredicateContext): Diagnostic[] {
  const { artifact } = ctx;
  if (!artifact) return [];
  const status = artifact.frontMatter?.data['status'];
  if (status === 'approved') return [];
  return [
    diagnostic({
      ruleId: 'artifact-unlocked',
      message: `${ctx.artifactName} is not locked: front-matter status is ${status === undefined ? 'absent' : `"${String(status)}"`}.`,
      file: artifact.path,
      position: artifact.frontMatter?.positions['status'] ?? artifact.frontMatter?.position ?? TOP,
      node: ctx.node.id,
      expected: 'status: approved',
      actual: status === undefined ? 'no status' : `status: ${String(status)}`,
      fix: `Ask an approver to review ${ctx.artifactName}; it is locked when its status is approved.`,
    }),
  ];
}

function frontMatter(expected: Readonly<Record<string, string | number | boolean>>, ctx: PredicateContext): Diagnostic[] {
  const { artifact } = ctx;
  if (!artifact) return [];
  return Object.entries(expected).flatMap(([key, value]) => {
    const actual = artifact.frontMatter?.data[key];
    if (actual === value) return [];
    return [
      diagnostic({
        ruleId: 'front-matter-invalid',
        message: `${ctx.artifactName} front-matter \`${key}\` is ${actual === undefined ? 'absent' : `"${String(actual)}"`}; this gate needs "${String(value)}".`,
        file: artifact.path,
        position: artifact.frontMatter?.positions[key] ?? artifact.frontMatter?.position ?? TOP,
        node: ctx.node.id,
        expected: `${key}: ${String(value)}`,
        actual: actual === undefined ? `no ${key}` : `${key}: ${String(actual)}`,
        fix: `Set \`${key}: ${String(value)}\` once the node's work is really done.`,
      }),
    ];
  });
}

function sections(titles: readonly string[], ctx: PredicateContext): Diagnostic[] {
  const { artifact } = ctx;
  if (!artifact) return [];
  return titles.flatMap((title) => {
    const section = findSection(artifact, title);
    if (!section) {
      return [
        diagnostic({
          ruleId: 'section-missing',
          message: `${ctx.artifactName} has no "${title}" section.`,
          file: artifact.path,
          position: { line: artifact.lineCount, column: 1 },
          node: ctx.node.id,
          expected: `a "## ${title}" heading with content`,
          fix: `Add a "## ${title}" section to ${ctx.artifactName} and write it.`,
        }),
      ];
    }
    if (!section.empty) return [];
    return [
      diagnostic({
        ruleId: 'section-empty',
        message: `The "${section.title}" section of ${ctx.artifactName} is empty (only whitespace, comments, placeholders or guidance).`,
        file: artifact.path,
        position: section.position,
        node: ctx.node.id,
        expected: 'written content under the heading',
        fix: `Write the "${section.title}" section; template prompts and comments do not count.`,
      }),
    ];
  });
}

function tasksComplete(ctx: PredicateContext): Diagnostic[] {
  const source = ctx.artifact ? { name: ctx.artifactName ?? 'tasks.md', artifact: ctx.artifact } : ctx.lookup('tasks.md');
  if (!source) {
    return [
      diagnostic({
        ruleId: 'artifact-missing',
        message: 'tasks.md is missing, so no task can be shown complete.',
        file: ctx.pathOf('tasks.md'),
        node: ctx.node.id,
        fix: 'Break the design down into tasks in tasks.md.',
      }),
    ];
  }
  const { artifact } = source;
  if (artifact.tasks.length === 0) {
    return [
      diagnostic({
        ruleId: 'tasks-incomplete',
        message: `${source.name} lists no tasks, so nothing shows the work is done.`,
        file: artifact.path,
        position: TOP,
        node: ctx.node.id,
        expected: 'at least one task line (`- [x] …`)',
        fix: `List the work as tasks in ${source.name}.`,
      }),
    ];
  }
  return artifact.tasks
    .filter((task) => !task.done)
    .map((task) =>
      diagnostic({
        ruleId: 'tasks-incomplete',
        message: `Task not done: "${task.text}" ([${task.marker}]).`,
        file: artifact.path,
        position: task.position,
        node: ctx.node.id,
        expected: '[x]',
        actual: `[${task.marker}]`,
        fix: 'Finish the task and tick it, or remove it from the plan with a note in the execution log.',
      }),
    );
}

function boundaries(from: { artifact: string; section: string }, ctx: PredicateContext): Diagnostic[] {
  const { artifact } = ctx;
  const upstream = ctx.lookup(from.artifact);
  if (!artifact || !upstream) return [];
  const section = findSection(upstream.artifact, from.section);
  if (!section) return [];
  const haystack = artifact.text.toLowerCase();
  return section.items
    .filter((item) => !haystack.includes(item.term.toLowerCase()))
    .map((item) =>
      diagnostic({
        ruleId: 'boundary-unaddressed',
        message: `Trust boundary "${item.term}" named in ${upstream.name} § ${section.title} is not addressed in ${ctx.artifactName}.`,
        file: upstream.artifact.path,
        position: item.position,
        node: ctx.node.id,
        expected: `${ctx.artifactName} mentions "${item.term}"`,
        fix: `Address "${item.term}" in ${ctx.artifactName} (for example in its Security design section).`,
      }),
    );
}

function reviewRounds(rule: { type: string; min: number }, ctx: PredicateContext): Diagnostic[] {
  const log = ctx.lookup('execution-log.md');
  const file = log?.artifact.path ?? ctx.pathOf('execution-log.md');
  const table = log?.artifact.tables.find((t) => (t.section ?? '').toLowerCase().includes('review cycles'));
  let counted = 0;
  if (table) {
    const typeColumn = table.header.findIndex((h) => /type|kind|reviewer/i.test(h));
    const outcomeColumn = table.header.findIndex((h) => /outcome|result/i.test(h));
    counted = table.rows.filter((row) => {
      const type = (row.cells[typeColumn] ?? '').toLowerCase();
      const outcome = (row.cells[outcomeColumn] ?? '').toLowerCase().trim();
      return typeColumn >= 0 && outcomeColumn >= 0 && type.includes(rule.type.toLowerCase()) && COUNTING_OUTCOMES.some((o) => outcome.startsWith(o));
    }).length;
  }
  if (counted >= rule.min) return [];
  return [
    diagnostic({
      ruleId: 'review-rounds-missing',
      message: `The execution log records ${counted} ${rule.type} review round${counted === 1 ? '' : 's'} that ran; ${rule.min} needed.`,
      file,
      ...(log ? { position: table?.position ?? { line: log.artifact.lineCount, column: 1 } } : {}),
      node: ctx.node.id,
      expected: `≥ ${rule.min} "${rule.type}" row(s) in the Review cycles table with an outcome of new findings, zero or escalated`,
      actual: `${counted}`,
      fix: `Run the ${rule.type} review round and record it in the Review cycles table (an unavailable round does not count).`,
    }),
  ];
}

function approved(names: string, ctx: PredicateContext): Diagnostic[] {
  const wanted = names.split('|').map((name) => name.trim());
  const target = wanted.map((name) => ctx.lookup(name)).find(Boolean);
  // Nothing readable to approve is never an approval (the node need not produce the file).
  if (!target) {
    return [
      diagnostic({
        ruleId: 'artifact-missing',
        message: `${wanted.join(' or ')} is missing or unreadable, so there is nothing to approve.`,
        file: ctx.pathOf(wanted[0] as string),
        node: ctx.node.id,
        fix: `Write ${wanted.join(' or ')} before it is approved.`,
      }),
    ];
  }
  const digest = ctx.digests.get(target.name);
  const records = ctx.approvals.filter((a) => a.artifact === target.name && ctx.approvers.has(a.by));
  const fresh = records.find((a) => a.digest === digest);
  if (fresh) return [];
  const stale = records[records.length - 1];
  if (stale) {
    return [
      diagnostic({
        ruleId: 'approval-stale',
        message: `${target.name} was approved by ${stale.by} at ${stale.at}, but has changed since.`,
        file: target.artifact.path,
        position: TOP,
        node: ctx.node.id,
        expected: `sha256:${stale.digest}`,
        actual: digest ? `sha256:${digest}` : 'unknown digest',
        fix: `Ask an approver to review the change and run \`the-loop graph approve <id> ${target.name} --by <login>\` again.`,
      }),
    ];
  }
  return [
    diagnostic({
      ruleId: 'approval-missing',
      message: `No approver has approved ${target.name}.`,
      file: target.artifact.path,
      position: TOP,
      node: ctx.node.id,
      expected: 'an approval recorded by `the-loop graph approve` by a login with the approver role',
      fix: `An approver listed in .the-loop/collaborators.yaml runs \`the-loop graph approve <id> ${target.name} --by <login>\`.`,
    }),
  ];
}
