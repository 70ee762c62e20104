import type { Diagnostic } from '../diagnostic.js';
import type { GraphNode } from '../graph/types.js';
import { approvalTarget, tasksSource } from './predicate-sources.js';
import { defineRule, oneNodeGraph, report, type Rule, type RuleExamples } from './rule.js';

export const rule: Rule = defineRule({
  id: 'artifact-missing',
  summary: "A node's artifact is absent.",
  predicates: {
    tasksComplete: (_value, ctx) =>
      tasksSource(ctx)
        ? []
        : [
            report(rule, {
              message: 'tasks.md is missing, so no task can be shown complete.',
              file: ctx.pathOf('tasks.md'),
              node: ctx.node.id,
              fix: 'Break the design down into tasks in tasks.md.',
            }),
          ],
    // Nothing readable to approve is never an approval (the node need not produce the file).
    approved: (names, ctx) => {
      const { wanted, target } = approvalTarget(names, ctx);
      if (target) return [];
      return [
        report(rule, {
          message: `${wanted.join(' or ')} is missing or unreadable, so there is nothing to approve.`,
          file: ctx.pathOf(wanted[0] as string),
          node: ctx.node.id,
          fix: `Write ${wanted.join(' or ')} before it is approved.`,
        }),
      ];
    },
  },
});

/** A node that produces an artifact, none of whose alternatives is present. */
export function producedArtifactMissing(node: GraphNode, pathOf: (name: string) => string): Diagnostic {
  const wanted = node.alternatives.join(' or ');
  return report(rule, { message: `${wanted} is missing.`, file: pathOf(node.alternatives[0]!), node: node.id, expected: wanted, fix: `Write ${wanted} in ${folderOf(pathOf(node.alternatives[0]!))}.` });
}

// `docs/specs/issue-42/` from `docs/specs/issue-42/requirements.md`.
function folderOf(path: string): string {
  return path.slice(0, path.lastIndexOf('/') + 1) || './';
}

/** Where the rule reports, and where it does not, on small work items: rules.test.ts runs them. */
export function examples(): RuleExamples {
  return {
    notOk: [
      { title: 'neither requirements.md nor bugfix.md exists', files: {}, findings: ['requirements.md'] },
      { title: 'tasksComplete with no tasks.md to read', graph: oneNodeGraph('gate: [{tasksComplete: true}]'), files: {}, findings: ['tasks.md'] },
      { title: 'approved: names a file that is not there', graph: oneNodeGraph('gate: [{approved: design.md}]'), files: {}, findings: ['design.md'] },
    ],
    ok: [{ title: 'bugfix.md satisfies requirements.md|bugfix.md', files: { 'bugfix.md': '# Bug\n\nIt crashes.\n' } }],
  };
}
