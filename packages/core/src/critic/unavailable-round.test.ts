import { describe, expect, it } from 'vitest';
import { evaluateWorkItem } from '../gate/evaluate-work-item.js';
import { compileGraph } from '../graph/compile-graph.js';

// The rule the critic reference states: a round that could not run is recorded `unavailable`
// and is not a round toward the critic-review gate.
const GRAPH = `start: critic-review
nodes:
  - id: critic-review
    phase: needs-review
    actor: agent
    produces: execution-log.md
    gate:
      - reviewRounds: {type: critic, min: 1}
edges: []
`;

function logWith(rows: string): string {
  return `---\nphase: needs-review\n---\n# Execution log\n\n## Review cycles\n\n| Round | Type | Reviewer | Outcome |\n|---|---|---|---|\n${rows}`;
}

function evaluate(log: string) {
  const compiled = compileGraph('graph.yaml', GRAPH);
  if (!compiled.ok) throw new Error(compiled.issues.map((i) => i.message).join('; '));
  return evaluateWorkItem(compiled.graph, { id: 'issue-1', dir: 'docs/specs/issue-1', files: new Map([['execution-log.md', { text: log }]]) });
}

describe('Running a round: a round that cannot run is recorded unavailable and does not count toward criticReviewCount', () => {
  it('an unavailable critic round leaves the critic-review gate unmet', () => {
    const result = evaluate(logWith('| 1 | critic | [cursor/gpt-5] | unavailable: cursor-agent not on PATH |\n'));
    expect(result.ok).toBe(false);
    expect(result.findings.map((f) => f.ruleId)).toContain('review-rounds-missing');
  });

  it('a critic round that ran counts', () => {
    const result = evaluate(logWith('| 1 | critic | [cursor/gpt-5] | unavailable |\n| 2 | critic | [claude/opus] | zero |\n'));
    expect(result.findings.map((f) => f.ruleId)).not.toContain('review-rounds-missing');
  });
});
