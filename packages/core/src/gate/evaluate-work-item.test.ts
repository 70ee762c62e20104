import { describe, expect, it } from 'vitest';
import { getDefaultGraph } from '../graph/compile-graph.js';
import { evaluateWorkItem, mainLine, type WorkItemResult } from './evaluate-work-item.js';
import type { WorkItemInput } from './inputs.js';
import { check, verified } from '../evidence/examples.js';
import { approvedBy, completeLog } from '../test-support/work-items.js';

// How the current node is derived: walking pass edges with verdicts, and inspecting every
// node the work has already reached even while an earlier node waits on a human.
const DIR = 'docs/specs/w';

function evaluate(files: Record<string, string>, extra: Partial<WorkItemInput> = {}): WorkItemResult {
  return evaluateWorkItem(getDefaultGraph(), { id: 'w', dir: DIR, files: new Map(Object.entries(files).map(([k, text]) => [k, { text }])), ...verified(check('unit', ['AC1'])), ...extra });
}

const statuses = (result: WorkItemResult): string[] => result.nodes.filter((n) => n.status !== 'pending').map((n) => `${n.node} ${n.status} ${n.outcome}`);
const rulesOf = (result: WorkItemResult, id: string): string[] => (result.nodes.find((n) => n.node === id)?.findings ?? []).map((d) => `${d.file.slice(DIR.length + 1)}:${d.line}:${d.column} ${d.ruleId}`);


const REQUIREMENTS = '---\nstatus: approved\n---\n# Requirements\n## Security considerations\n- **webhook endpoint**: signed\n## Acceptance criteria\n- AC1: Webhook calls are signed.\n';
const DESIGN = '---\nstatus: approved\n---\n# Design\n## Security design\nThe webhook endpoint checks signatures.\n';

describe('mainLine', () => {
  it('follows pass edges from start, in walk order, and leaves out nodes no pass edge reaches', () => {
    const ids = mainLine(getDefaultGraph()).map((n) => n.id);
    expect(ids.slice(0, 4)).toEqual(['brainstorming', 'requirements-definition', 'requirements-approval', 'design']);
    expect(ids.at(-1)).toBe('learnings');
    expect(ids).not.toContain('escalated');
  });
});

describe('evaluateWorkItem: the walk', () => {
  it('skips the optional brainstorming node and stops at the first unmet node; later nodes stay pending and unevaluated', () => {
    const result = evaluate({});
    expect(statuses(result)).toEqual(['brainstorming skipped skip', 'requirements-definition current block']);
    expect(result.nodes.filter((n) => n.status === 'pending').every((n) => n.outcome === undefined && n.findings.length === 0)).toBe(true);
  });

  it('a node waiting on a human is `wait`, not `block`', () => {
    const result = evaluate({ 'requirements.md': REQUIREMENTS });
    expect(result.currentNode).toBe('requirements-approval');
    expect(result.nodes.find((n) => n.node === 'requirements-approval')?.outcome).toBe('wait');
    expect(result.nodes.some((n) => n.outcome === 'block')).toBe(false);
  });

  it('unticked tasks in a tasks.md that exists are evaluated, whatever earlier files the work item lacks', () => {
    const tasks = '# Tasks\n\n- [x] one\n- [ ] two\n';
    const waiting = evaluate({ 'requirements.md': REQUIREMENTS, 'tasks.md': tasks });
    expect(waiting.currentNode).toBe('requirements-approval');
    expect(waiting.nodes.find((n) => n.node === 'implementation')).toMatchObject({ status: 'reached', outcome: 'block' });
    expect(rulesOf(waiting, 'implementation')).toEqual(['tasks.md:4:1 tasks-incomplete']);
    const alone = evaluate({ 'tasks.md': tasks });
    expect(alone.currentNode).toBe('requirements-definition');
    expect(rulesOf(alone, 'implementation')).toEqual(['tasks.md:4:1 tasks-incomplete']);
  });

  it('while waiting on requirements approval, inspects a design.md that already exists', () => {
    const design = '# Design\n## Security design\n<!-- later -->\n';
    const result = evaluate({ 'requirements.md': REQUIREMENTS, 'design.md': design });
    expect(result.currentNode).toBe('requirements-approval');
    expect(result.nodes.find((n) => n.node === 'design')).toMatchObject({ status: 'reached', outcome: 'block' });
    expect(rulesOf(result, 'design')).toEqual(['design.md:2:1 section-empty', 'requirements.md:6:1 boundary-unaddressed']);
  });

  it('while waiting on requirements approval, inspects the tasks when the log claims needs-review', () => {
    const result = evaluate({ 'requirements.md': REQUIREMENTS, 'tasks.md': '- [x] a\n- [ ] b\n', 'execution-log.md': '---\nphase: needs-review\n---\n# Log\n' });
    expect(result.currentNode).toBe('requirements-approval');
    expect(result.nodes.find((n) => n.node === 'implementation')).toMatchObject({ status: 'reached', outcome: 'block' });
    expect(rulesOf(result, 'implementation')).toEqual(['tasks.md:2:1 tasks-incomplete']);
    expect(rulesOf(result, 'self-review')).toContain('execution-log.md:2:8 phase-ahead-of-artifacts');
  });

  it('a node with invalid front-matter is current, never `passed` with a `block` outcome', () => {
    const result = evaluate({ 'requirements.md': '---\nstatus: [\n---\n# R\n' });
    expect(statuses(result)).toEqual(['brainstorming skipped skip', 'requirements-definition current block']);
    for (const node of result.nodes) if (node.status === 'passed') expect(node.outcome).toBe('pass');
  });

  it('an opt-in node is skipped unless selected, and gated once selected', () => {
    const files = { 'requirements.md': REQUIREMENTS, 'design.md': DESIGN, 'tasks.md': '- [x] a\n', 'execution-log.md': completeLog('complete') };
    const approvals = approvedBy('requirements.md', 'design.md', 'execution-log.md');
    expect(evaluate(files, approvals).nodes.find((n) => n.node === 'design-critic-review')?.status).toBe('skipped');
    const selected = evaluate(files, { ...approvals, selectedOptIns: ['design-critic-review'] });
    expect(selected.currentNode).toBe('design-critic-review');
    expect(rulesOf(selected, 'design-critic-review')).toEqual(['execution-log.md:21:1 section-missing']);
  });

  it('a finished work item whose log says complete passes with no finding at all', () => {
    const result = evaluate({ 'requirements.md': REQUIREMENTS, 'design.md': DESIGN, 'tasks.md': '- [x] a\n', 'execution-log.md': completeLog('complete') }, approvedBy('requirements.md', 'design.md', 'execution-log.md'));
    expect(result.currentNode).toBeNull();
    expect(result.ok).toBe(true);
    expect(result.findings).toEqual([]);
    expect(result.nodes.every((n) => n.status === 'passed' || n.status === 'skipped')).toBe(true);
  });

  it('a finished work item whose tasks nest thousands deep is not finished: the file is not read past that depth', () => {
    const deep = `${'- '.repeat(4_999)}[x] hidden\n`;
    const result = evaluate({ 'requirements.md': REQUIREMENTS, 'design.md': DESIGN, 'tasks.md': `- [x] a\n\n${deep}${deep}- [ ] after\n`, 'execution-log.md': completeLog('complete') }, approvedBy('requirements.md', 'design.md', 'execution-log.md'));
    expect(result.ok).toBe(false);
    expect(result.findings.map((d) => `${d.file.slice(DIR.length + 1)}:${d.line} ${d.ruleId} ${d.severity}`)).toContain('tasks.md:3 artifact-unreadable error');
  });

  it('a finished work item whose graph state records a node off the main line ends unmet at the last node, not passed', () => {
    const files = { 'requirements.md': REQUIREMENTS, 'design.md': DESIGN, 'tasks.md': '- [x] a\n', 'execution-log.md': completeLog('complete') };
    const result = evaluate(files, { ...approvedBy('requirements.md', 'design.md', 'execution-log.md'), recordedNode: 'escalated' });
    expect(result.ok).toBe(false);
    expect(result.currentNode).toBe('learnings');
    expect(result.nodes.find((n) => n.node === 'learnings')).toMatchObject({ status: 'current', outcome: 'block' });
    expect(rulesOf(result, 'learnings')).toEqual(['graph-state.json:1:1 phase-mismatch']);
    expect(result.nodes.filter((n) => n.status === 'skipped').every((n) => n.outcome === 'skip')).toBe(true);
  });

  it('a recorded pointer behind the artifacts is a warning; one ahead of them is an error', () => {
    const files = { 'requirements.md': REQUIREMENTS, 'design.md': DESIGN, 'tasks.md': '- [x] a\n', 'execution-log.md': completeLog('complete') };
    const finished = evaluate(files, { ...approvedBy('requirements.md', 'design.md', 'execution-log.md'), recordedNode: 'design' });
    expect(finished.ok).toBe(true);
    expect(finished.findings.map((d) => [d.ruleId, d.severity, d.actual])).toEqual([['phase-mismatch', 'warning', 'design']]);
    // Waiting on the design approval: a pointer still at design is behind, one at tasks-breakdown ahead.
    const waiting = { 'requirements.md': REQUIREMENTS, 'design.md': DESIGN };
    const behind = evaluate(waiting, { ...approvedBy('requirements.md'), recordedNode: 'design' });
    expect(behind.currentNode).toBe('design-approval');
    expect(behind.nodes.find((n) => n.node === 'design-approval')?.outcome).toBe('wait');
    expect(behind.findings.filter((d) => d.ruleId === 'phase-mismatch').map((d) => d.severity)).toEqual(['warning']);
    const ahead = evaluate(waiting, { ...approvedBy('requirements.md'), recordedNode: 'tasks-breakdown' });
    expect(ahead.nodes.find((n) => n.node === 'design-approval')?.outcome).toBe('block');
    expect(ahead.findings.filter((d) => d.ruleId === 'phase-mismatch').map((d) => d.severity)).toEqual(['error']);
    const done = evaluate(waiting, { ...approvedBy('requirements.md'), recordedNode: null });
    expect(done.findings.filter((d) => d.ruleId === 'phase-mismatch').map((d) => d.severity)).toEqual(['error']);
  });

  it('waits on the final human approval without blocking once every agent node passes', () => {
    const result = evaluate({ 'requirements.md': REQUIREMENTS, 'design.md': DESIGN, 'tasks.md': '- [x] a\n', 'execution-log.md': completeLog('needs-review') }, approvedBy('requirements.md', 'design.md'));
    expect(result.currentNode).toBe('human-approval');
    expect(result.nodes.find((n) => n.node === 'human-approval')?.outcome).toBe('wait');
    expect(result.findings.filter((d) => d.severity === 'error').map((d) => d.ruleId)).toEqual(['approval-missing']);
  });

  it('reports each present artifact status and the log phase', () => {
    const result = evaluate({ 'requirements.md': REQUIREMENTS, 'tasks.md': '- [ ] a\n', 'execution-log.md': '---\nphase: design\n---\n' });
    expect(result.artifacts).toEqual({ 'execution-log.md': { status: null }, 'requirements.md': { status: 'approved' }, 'tasks.md': { status: null } });
    expect(result.logPhase).toBe('design');
  });
});
