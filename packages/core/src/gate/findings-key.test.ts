import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileGraph } from '../graph/compile-graph.js';
import { evaluateWorkItem } from './evaluate-work-item.js';
import { findingsKey } from './findings-key.js';

const GRAPH = 'start: build\nnodes:\n  - {id: build, phase: build, actor: agent, produces: tasks.md, gate: [{tasksComplete: true}]}\nedges: []\n';

function findingsOf(tasks: string) {
  const compiled = compileGraph('graph.yaml', GRAPH);
  if (!compiled.ok) throw new Error('the graph does not compile');
  return evaluateWorkItem(compiled.graph, { id: 'item', dir: 'docs/specs/item', files: new Map([['tasks.md', { text: tasks }]]) }).findings;
}

describe('findingsKey', () => {
  it('does not depend on the order findings arrive in', () => {
    const findings = findingsOf('# T\n\n- [ ] a\n- [ ] b\n- [ ] c\n- [~] d\n');
    fc.assert(
      fc.property(fc.shuffledSubarray([...findings], { minLength: findings.length, maxLength: findings.length }), (shuffled) => {
        expect(findingsKey(shuffled)).toBe(findingsKey(findings));
      }),
    );
  });

  it('changes when a task is ticked or a line moves', () => {
    const open = findingsKey(findingsOf('# T\n\n- [ ] a\n- [ ] b\n'));
    expect(findingsKey(findingsOf('# T\n\n- [x] a\n- [ ] b\n'))).not.toBe(open);
    expect(findingsKey(findingsOf('# T\n\n\n- [ ] a\n- [ ] b\n'))).not.toBe(open);
  });
});
