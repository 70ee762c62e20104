import { tasksSource } from './predicate-sources.js';
import { defineRule, oneNodeGraph, report, type Rule, type RuleExamples } from './rule.js';

export const rule: Rule = defineRule({
  id: 'optional-task-open',
  severity: 'warning',
  summary: 'An optional task (Kiro\'s `- [ ]*`) is not ticked; it is shown, and never blocks.',
  predicates: {
    tasksComplete: (_value, ctx) => {
      const source = tasksSource(ctx);
      if (!source) return [];
      return source.artifact.tasks
        .filter((task) => task.optional && !task.done)
        .map((task) =>
          report(rule, {
            message: `Optional task not done: "${task.text}" ([${task.marker}]*); it does not block.`,
            file: source.artifact.path,
            position: task.position,
            node: ctx.node.id,
            actual: `[${task.marker}]*`,
            fix: 'Do it and tick it when it is worth doing, or delete it from the plan.',
          }),
        );
    },
  },
});

/** Where the rule reports, and where it does not, on small work items: rules.test.ts runs them. */
export function examples(): RuleExamples {
  const GRAPH = oneNodeGraph('produces: tasks.md, gate: [{tasksComplete: true}]');

  return {
    notOk: [
      {
        title: "Kiro's optional tasks, at any depth, are reported and the gate still passes",
        graph: GRAPH,
        files: { 'tasks.md': '# Implementation Plan\n\n- [x] 1. Build it\n  - [ ]* 1.1 Write unit tests\n- [ ]* 2. Load test\n' },
        findings: ['tasks.md:4:3', 'tasks.md:5:1'],
      },
    ],
    ok: [{ title: 'an optional task that was done', graph: GRAPH, files: { 'tasks.md': '# Implementation Plan\n\n- [x] 1. Build it\n- [x]* 2. Write tests\n' } }],
  };
}
