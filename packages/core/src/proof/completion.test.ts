import { describe, expect, it } from 'vitest';
import type { WorkItemInput } from '../gate/inputs.js';
import { getDefaultGraph } from '../graph/compile-graph.js';
import { check, record, verification } from '../evidence/examples.js';
import { approvedBy, completeLog } from '../test-support/work-items.js';
import { buildCompletionProof } from './completion.js';
import { proofToMarkdown } from './markdown.js';

const REQUIREMENTS = ['---', 'status: approved', '---', '# Requirements', '## Acceptance criteria', '1. WHEN a name is given THEN the system SHALL greet it.', '2. IF no name is given THEN the system SHALL greet the world.', ''].join('\n');
const DESIGN = '---\nstatus: approved\n---\n# Design\n## Security design\nNo boundary is crossed.\n';
const TICKED = '# Tasks\n- [x] Greet by name\n- [x] Greet the world\n';

function proof(extra: Partial<WorkItemInput>, files: Record<string, string> = {}) {
  const all = { 'requirements.md': REQUIREMENTS, 'design.md': DESIGN, 'tasks.md': TICKED, 'execution-log.md': completeLog('needs-review'), ...files };
  const input: WorkItemInput = { id: 'w', dir: 'docs/specs/w', files: new Map(Object.entries(all).map(([k, text]) => [k, { text }])), ...approvedBy('requirements.md', 'design.md'), ...extra };
  return buildCompletionProof(getDefaultGraph(), input, { commit: 'b'.repeat(40) });
}
const statuses = (p: ReturnType<typeof proof>) => Object.fromEntries(p.criteria.map((c) => [c.id, c.status]));

const unit = check('unit', ['AC1', 'AC2']);

describe('completion.v1', () => {
  it('is COMPLETE when current, passing evidence covers every criterion; the final approval waits without changing it', () => {
    const p = proof(verification([unit], { unit: record(unit) }));
    expect(p).toMatchObject({ schemaVersion: 1, kind: 'completion.v1', workItem: 'w', verdict: 'COMPLETE', commit: 'b'.repeat(40), findings: [], staleEvidence: [], reasons: [] });
    expect(p.criteria).toEqual([
      { id: 'AC1', text: 'WHEN a name is given THEN the system SHALL greet it.', file: 'docs/specs/w/requirements.md', line: 6, status: 'VERIFIED', evidence: ['unit'] },
      { id: 'AC2', text: 'IF no name is given THEN the system SHALL greet the world.', file: 'docs/specs/w/requirements.md', line: 7, status: 'VERIFIED', evidence: ['unit'] },
    ]);
    expect(p.openDecisions).toEqual([expect.objectContaining({ kind: 'approval', node: 'human-approval', blocking: false })]);
  });

  it('is INCOMPLETE with every task ticked and no evidence: a checkbox is a claim', () => {
    const p = proof(verification([unit]));
    expect(p.verdict).toBe('INCOMPLETE');
    expect(statuses(p)).toEqual({ AC1: 'UNVERIFIED', AC2: 'UNVERIFIED' });
    expect(p.findings.map((d) => d.ruleId)).toEqual(expect.arrayContaining(['evidence-missing']));
  });

  it('makes a criterion UNVERIFIED, never PARTIAL, when one of its checks fails and another passes', () => {
    const lint = check('lint', ['AC2']);
    const p = proof(verification([unit, lint], { unit: record(unit), lint: record(lint, { exitCode: 1 }) }));
    expect(statuses(p)).toEqual({ AC1: 'VERIFIED', AC2: 'UNVERIFIED' });
    expect(p.reasons).toContain('AC2 is UNVERIFIED: lint: failing (exit 1 (expected 0))');
  });

  it('makes a criterion PARTIAL when one check is current and another never ran', () => {
    const e2e = check('e2e', ['AC2']);
    expect(statuses(proof(verification([unit, e2e], { unit: record(unit) })))).toEqual({ AC1: 'VERIFIED', AC2: 'PARTIAL' });
  });

  it('lists stale evidence and does not count it', () => {
    const p = proof(verification([unit], { unit: record(unit, { content: '1' }) }, '2'));
    expect(p.verdict).toBe('INCOMPLETE');
    expect(statuses(p)).toEqual({ AC1: 'UNVERIFIED', AC2: 'UNVERIFIED' });
    expect(p.staleEvidence).toEqual([{ check: 'unit', record: 'docs/specs/w/evidence/unit.json', reasons: ['the 1 file it depends on differ from the 1 it ran against'] }]);
  });

  it('accepts NOT_APPLICABLE with the reason from the testing plan, but not a proof that verifies nothing', () => {
    const plan = '---\nverification:\n  notApplicable:\n    AC2: Greeting the world is the hosted edition only.\n---\n# Testing plan\n';
    const one = check('unit', ['AC1']);
    const p = proof(verification([one], { unit: record(one) }), { 'testing-plan.md': plan });
    expect(p.verdict).toBe('COMPLETE');
    expect(p.criteria[1]).toMatchObject({ id: 'AC2', status: 'NOT_APPLICABLE', reason: 'Greeting the world is the hosted edition only.' });
    const all = '---\nverification:\n  notApplicable:\n    AC1: Not here.\n    AC2: Not here either.\n---\n# Testing plan\n';
    expect(proof(verification([one], { unit: record(one) }), { 'testing-plan.md': all })).toMatchObject({ verdict: 'INCOMPLETE', reasons: expect.arrayContaining(['no criterion is VERIFIED: a proof that verifies nothing proves nothing']) });
  });

  it('is INCOMPLETE while a clarification is open in the requirements', () => {
    const requirements = REQUIREMENTS.replace('# Requirements', '# Requirements\n\nAuth is [NEEDS CLARIFICATION: which provider?].');
    const p = proof(verification([unit], { unit: record(unit) }), { 'requirements.md': requirements });
    expect(p.verdict).toBe('INCOMPLETE');
    expect(p.openDecisions[0]).toEqual({ kind: 'clarification', text: 'Auth is [NEEDS CLARIFICATION: which provider?].', file: 'docs/specs/w/requirements.md', line: 6, blocking: true });
  });

  it('renders markdown a reviewer reads: verdict, a criteria table, a checks table', () => {
    const md = proofToMarkdown(proof(verification([unit], { unit: record(unit) })));
    expect(md).toContain('## Completion proof: w — COMPLETE');
    expect(md).toContain('| **AC1** WHEN a name is given THEN the system SHALL greet it. | VERIFIED | `unit` |');
    expect(md).toContain('| `unit` | passed, current (exit 0) | `cccccccccccc` | `node --test` |');
  });
});
