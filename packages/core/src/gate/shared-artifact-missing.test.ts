import { describe, expect, it } from 'vitest';
import { getDefaultGraph } from '../graph/compile-graph.js';
import { evaluateWorkItem } from './evaluate-work-item.js';
import type { ArtifactSource } from './inputs.js';

const LOG = '---\nphase: needs-review\n---\n# Execution log\n\n## Next\n\nReview.\n';
const DESIGN = '---\nstatus: approved\n---\n# Design\n\n## Security design\n\nNo new boundary.\n';
const REQUIREMENTS = '---\nstatus: approved\n---\n# Requirements\n\n1. It works.\n';

const evaluate = (files: Record<string, string>) =>
  evaluateWorkItem(getDefaultGraph(), {
    id: 'issue-1',
    dir: 'docs/specs/issue-1',
    files: new Map<string, ArtifactSource>(Object.entries(files).map(([name, text]) => [name, { text }])),
  });

const missing = (result: ReturnType<typeof evaluate>) => result.findings.filter((d) => d.ruleId === 'artifact-missing').map((d) => `${d.node} ${d.file}`);

describe('a missing file that several reached nodes produce', () => {
  it('is one artifact-missing finding, at the first node that needs it (tasks.md)', () => {
    const result = evaluate({ 'requirements.md': REQUIREMENTS, 'design.md': DESIGN, 'execution-log.md': LOG });
    expect(missing(result)).toEqual(['tasks-breakdown docs/specs/issue-1/tasks.md']);
    // The later node is still unmet: dropping the repeat does not make it pass.
    expect(result.nodes.find((n) => n.node === 'implementation')).toMatchObject({ status: 'reached', outcome: 'block', findings: [] });
  });

  it('is one artifact-missing finding for requirements.md|bugfix.md, at requirements-definition', () => {
    const result = evaluate({ 'design.md': DESIGN, 'execution-log.md': LOG });
    expect(missing(result)).toEqual(['requirements-definition docs/specs/issue-1/requirements.md', 'tasks-breakdown docs/specs/issue-1/tasks.md']);
    expect(result.currentNode).toBe('requirements-definition');
  });

  it('never reports requirements.md missing when bugfix.md stands in for it', () => {
    const result = evaluate({ 'bugfix.md': REQUIREMENTS, 'design.md': DESIGN, 'tasks.md': '- [x] fix\n', 'execution-log.md': LOG });
    expect(missing(result)).toEqual([]);
  });
});
