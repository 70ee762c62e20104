import { tasksSource } from './predicate-sources.js';
import { defineRule, oneNodeGraph, report, type Rule, type RuleExamples } from './rule.js';

export const rule: Rule = defineRule({
  id: 'tasks-incomplete',
  summary: 'A task is not ticked.',
  predicates: {
    tasksComplete: (_value, ctx) => {
      const source = tasksSource(ctx);
      if (!source) return [];
      const { artifact } = source;
      if (artifact.tasks.length === 0) {
        return [
          report(rule, {
            message: `${source.name} lists no tasks, so nothing shows the work is done.`,
            file: artifact.path,
            position: { line: 1, column: 1 },
            node: ctx.node.id,
            expected: 'at least one task line (`- [x] …`)',
            fix: `List the work as tasks in ${source.name}.`,
          }),
        ];
      }
      return artifact.tasks
        .filter((task) => !task.done && !task.optional)
        .map((task) =>
          report(rule, {
            message: `Task not done: "${task.text}" ([${task.marker}]).`,
            file: artifact.path,
            position: task.position,
            node: ctx.node.id,
            expected: '[x]',
            actual: `[${task.marker}]`,
            fix: `Finish the task and tick it in ${source.name}, or take it out of the plan and say why.`,
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
      { title: 'one finding per task not ticked, in any list style and any marker', graph: GRAPH, files: { 'tasks.md': '# Tasks\n\n- [x] one\n* [ ] two\n1. [~] three\n   - [-] nested\n' }, findings: ['tasks.md:4:1', 'tasks.md:5:1', 'tasks.md:6:4'] },
      { title: "Kiro's in-progress `[-]` parent and its open sub-task are both not done", graph: GRAPH, files: { 'tasks.md': '# Implementation Plan\n\n- [-] 2. Verify\n  - [x] 2.1 Compare\n  - [ ] 2.2 Lock out\n    - _Requirements: 2.1_\n' }, findings: ['tasks.md:3:1', 'tasks.md:5:3'] },
      { title: 'a tasks file with no task at all', graph: GRAPH, files: { 'tasks.md': '# Tasks\n\nAll done, trust me.\n' }, findings: ['tasks.md:1:1'] },
    ],
    ok: [
      { title: 'every task ticked, `[X]` too; a box inside code is not a task', graph: GRAPH, files: { 'tasks.md': '# Tasks\n\n- [x] one\n- [X] two\n\n```\n- [ ] in code\n```\n' } },
      { title: "Kiro's optional task (`- [ ]*`) is not required; a checklist fenced inside a task is an example", graph: GRAPH, files: { 'tasks.md': '# Implementation Plan\n\n- [x] 1. Export\n  - Columns:\n\n    ```markdown\n    - [ ] date\n    ```\n\n- [ ]* 2. Load test\n' } },
    ],
  };
}
