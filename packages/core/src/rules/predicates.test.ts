import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../diagnostic.js';
import { compileGraph, getDefaultGraph } from '../graph/compile-graph.js';
import { evaluateWorkItem, type WorkItemResult } from '../gate/evaluate-work-item.js';
import type { ArtifactSource, WorkItemInput } from '../gate/inputs.js';
import { check, verified } from '../evidence/examples.js';
import { approvedBy, completeLog } from '../test-support/work-items.js';

// Every gate predicate of the default graph, ok and not ok, through evaluateWorkItem with
// small in-memory work items. Findings print as `file:line:col ruleId`, remark-lint style.
const DIR = 'docs/specs/w';

function evaluate(files: Record<string, string | ArtifactSource>, extra: Partial<WorkItemInput> = {}): WorkItemResult {
  const map = new Map(Object.entries(files).map(([name, v]): [string, ArtifactSource] => [name, typeof v === 'string' ? { text: v } : v]));
  return evaluateWorkItem(getDefaultGraph(), { id: 'w', dir: DIR, files: map, ...verified(check('unit', ['AC1'])), ...extra });
}

const show = (d: Diagnostic): string => `${d.file.slice(DIR.length + 1)}:${d.line ?? '-'}:${d.column ?? '-'} ${d.ruleId}`;
const node = (result: WorkItemResult, id: string) => {
  const found = result.nodes.find((n) => n.node === id);
  if (!found) throw new Error(`no node ${id}`);
  return { status: found.status, outcome: found.outcome, findings: found.findings.map(show) };
};


const REQUIREMENTS = ['---', 'status: approved', '---', '# Requirements', '## Security considerations', '- **webhook endpoint**: signed', '- `token store`: at rest', '## Acceptance criteria', '- AC1: Webhook calls are signed.', ''].join('\n');
const DESIGN = ['---', 'status: approved', '---', '# Design', '## Security design', 'The webhook endpoint checks signatures; the token store is encrypted.', ''].join('\n');

describe('artifact-missing', () => {
  it('not ok: neither requirements.md nor bugfix.md exists', () => {
    const result = evaluate({});
    expect(result.currentNode).toBe('requirements-definition');
    expect(node(result, 'requirements-definition')).toEqual({ status: 'current', outcome: 'block', findings: ['requirements.md:-:- artifact-missing'] });
    expect(result.findings[0]?.message).toContain('requirements.md or bugfix.md');
  });

  it('ok: bugfix.md satisfies requirements.md|bugfix.md', () => {
    const result = evaluate({ 'bugfix.md': '---\nstatus: draft\n---\n# Bug\n' });
    expect(node(result, 'requirements-definition')).toEqual({ status: 'passed', outcome: 'pass', findings: [] });
    expect(result.findings.map((d) => d.ruleId)).not.toContain('artifact-missing');
  });

  it('ok: bugfix.md stands in for requirements.md where design reads its boundaries', () => {
    const bugfix = REQUIREMENTS.replace('# Requirements', '# Bug');
    const result = evaluate({ 'bugfix.md': bugfix, 'design.md': '# Design\n## Security design\nOnly the webhook endpoint.\n' }, approvedBy('bugfix.md'));
    expect(node(result, 'design').findings).toEqual(['bugfix.md:7:1 boundary-unaddressed']);
  });
});

describe('artifact-ambiguous', () => {
  it('not ok: both requirements.md and bugfix.md exist', () => {
    const result = evaluate({ 'requirements.md': '# R\n', 'bugfix.md': '# B\n' });
    expect(node(result, 'requirements-definition')).toEqual({ status: 'current', outcome: 'block', findings: ['bugfix.md:-:- artifact-ambiguous'] });
  });
});

describe('artifact-unlocked', () => {
  it('not ok: status is draft, at the status value', () => {
    expect(node(evaluate({ 'requirements.md': '---\nstatus: draft\n---\n# R\n' }), 'requirements-approval').findings).toContain('requirements.md:2:9 artifact-unlocked');
  });

  it('not ok: no front-matter at all, at the top of the file', () => {
    expect(node(evaluate({ 'requirements.md': '# R\n' }), 'requirements-approval').findings).toContain('requirements.md:1:1 artifact-unlocked');
  });

  it('ok: status approved and approved by an approver', () => {
    expect(node(evaluate({ 'requirements.md': REQUIREMENTS }, approvedBy('requirements.md')), 'requirements-approval')).toEqual({ status: 'passed', outcome: 'pass', findings: [] });
  });
});

describe('artifact-empty', () => {
  it('not ok: a whitespace-only file', () => {
    expect(node(evaluate({ 'requirements.md': ' \n\n' }), 'requirements-definition')).toEqual({ status: 'current', outcome: 'block', findings: ['requirements.md:1:1 artifact-empty'] });
  });
});

describe('artifact-unreadable', () => {
  it('not ok: a file the reader could not decode, with the reason', () => {
    const result = evaluate({ 'requirements.md': { unreadable: 'it is not valid UTF-8' } });
    expect(node(result, 'requirements-definition')).toEqual({ status: 'current', outcome: 'block', findings: ['requirements.md:-:- artifact-unreadable'] });
    expect(result.findings[0]?.message).toContain('not valid UTF-8');
  });
});

describe('front-matter-invalid', () => {
  it('not ok: malformed YAML leaves the producing node current, with the line', () => {
    const result = evaluate({ 'requirements.md': '---\ntitle: x\nstatus: [\n---\n# R\n' });
    expect(result.currentNode).toBe('requirements-definition');
    expect(node(result, 'requirements-definition')).toEqual({ status: 'current', outcome: 'block', findings: ['requirements.md:3:10 front-matter-invalid'] });
  });

  it('not ok: a frontMatter predicate (complete needs `phase: complete`) at the phase value', () => {
    const result = evaluate(completeItem('needs-review'), approvedBy('requirements.md', 'design.md', 'execution-log.md'));
    expect(result.currentNode).toBe('complete');
    expect(node(result, 'complete').findings).toContain('execution-log.md:2:8 front-matter-invalid');
  });
});

describe('section-missing / section-empty', () => {
  it('not ok: design.md has no Security design heading, reported at its last line', () => {
    const result = evaluate({ 'requirements.md': REQUIREMENTS, 'design.md': '# Design\nProse.\n' }, approvedBy('requirements.md'));
    expect(node(result, 'design').findings).toContain('design.md:3:1 section-missing');
  });

  it('not ok: the heading holds only a comment, a placeholder and guidance, reported at the heading', () => {
    const design = ['# Design', '## Security design', '<!-- write here -->', '', '<threats>', '', '> Name every boundary.', '## Other', 'x'].join('\n');
    const result = evaluate({ 'requirements.md': REQUIREMENTS, 'design.md': design }, approvedBy('requirements.md'));
    expect(node(result, 'design').findings).toContain('design.md:2:1 section-empty');
  });

  it('ok: the heading matches case-insensitively and has content', () => {
    const design = '# Design\n### SECURITY DESIGN ###\nThe webhook endpoint and token store are covered.\n';
    expect(node(evaluate({ 'requirements.md': REQUIREMENTS, 'design.md': design }, approvedBy('requirements.md')), 'design')).toEqual({ status: 'passed', outcome: 'pass', findings: [] });
  });
});

describe('boundary-unaddressed', () => {
  it('not ok: one finding per boundary the design does not mention, at its line upstream', () => {
    const design = '# Design\n## Security design\nNothing specific.\n';
    const result = evaluate({ 'requirements.md': REQUIREMENTS, 'design.md': design }, approvedBy('requirements.md'));
    expect(node(result, 'design').findings).toEqual(['requirements.md:6:1 boundary-unaddressed', 'requirements.md:7:1 boundary-unaddressed']);
  });

  it('ok: every boundary is mentioned, in any case', () => {
    const design = '# Design\n## Security design\nThe WEBHOOK ENDPOINT and the Token Store.\n';
    expect(node(evaluate({ 'requirements.md': REQUIREMENTS, 'design.md': design }, approvedBy('requirements.md')), 'design').findings).toEqual([]);
  });
});

describe('tasks-incomplete', () => {
  const upstream = { 'requirements.md': REQUIREMENTS, 'design.md': DESIGN };
  const approvals = approvedBy('requirements.md', 'design.md');

  it('not ok: one finding per unticked task, at its line, whatever the marker or list style', () => {
    const tasks = ['# Tasks', '- [x] done', '* [ ] open', '+ [~] partial', '1. [ ] ordered', '   - [X] nested done', '2) [/] paren'].join('\n');
    const result = evaluate({ ...upstream, 'tasks.md': tasks }, approvals);
    expect(result.currentNode).toBe('implementation');
    expect(node(result, 'implementation').findings).toEqual(['tasks.md:3:1 tasks-incomplete', 'tasks.md:4:1 tasks-incomplete', 'tasks.md:5:1 tasks-incomplete', 'tasks.md:7:1 tasks-incomplete']);
  });

  it('not ok: a tasks.md with no task at all', () => {
    expect(node(evaluate({ ...upstream, 'tasks.md': '# Tasks\nWe will see.\n' }, approvals), 'implementation').findings).toEqual(['tasks.md:1:1 tasks-incomplete']);
  });

  it('ok: every task ticked; task-like lines in a fence do not count', () => {
    const tasks = '# Tasks\n- [x] one\n```\n- [ ] example in a fence\n```\n';
    expect(node(evaluate({ ...upstream, 'tasks.md': tasks }, approvals), 'implementation')).toMatchObject({ status: 'passed', outcome: 'pass', findings: [] });
  });
});

describe('review-rounds-missing', () => {
  const rounds = (rows: string): string => ['---', 'phase: needs-review', '---', '# Log', '## Review cycles', '| # | type | outcome |', '|---|---|---|', rows, '## Verification results', 'green', ''].join('\n');
  const base = { 'requirements.md': REQUIREMENTS, 'design.md': DESIGN, 'tasks.md': '- [x] one\n' };
  const approvals = approvedBy('requirements.md', 'design.md');

  it('not ok: no self-review round, at the table', () => {
    const result = evaluate({ ...base, 'execution-log.md': rounds('| 1 | critic | zero |') }, approvals);
    expect(result.currentNode).toBe('self-review');
    expect(node(result, 'self-review').findings).toEqual(['execution-log.md:6:1 review-rounds-missing']);
  });

  it('not ok: an `unavailable` critic round does not count', () => {
    const result = evaluate({ ...base, 'execution-log.md': rounds('| 1 | self | zero |\n| 2 | critic | unavailable |') }, approvals);
    expect(result.currentNode).toBe('critic-review');
    expect(node(result, 'critic-review').findings).toEqual(['execution-log.md:6:1 review-rounds-missing']);
  });

  it('ok: rounds with findings, zero or escalated count', () => {
    const result = evaluate({ ...base, 'execution-log.md': rounds('| 1 | self | new findings |\n| 2 | critic | zero |\n| 3 | security | escalated |') }, approvals);
    expect(['self-review', 'critic-review', 'security-review'].map((id) => node(result, id).outcome)).toEqual(['pass', 'pass', 'pass']);
  });
});

describe('phase-mismatch / phase-ahead-of-artifacts', () => {
  it('phase-ahead-of-artifacts: the log claims implementation while design.md is missing', () => {
    const result = evaluate({ 'requirements.md': REQUIREMENTS, 'execution-log.md': '---\nphase: implementation\n---\n# Log\n' }, approvedBy('requirements.md'));
    expect(result.currentNode).toBe('design');
    expect(node(result, 'implementation').findings).toContain('execution-log.md:2:8 phase-ahead-of-artifacts');
  });

  it('phase-mismatch (error): the log claims a later phase whose upstream exists but whose gate is unmet', () => {
    const design = '---\nstatus: approved\n---\n# Design\n## Security design\n<!-- -->\n';
    const result = evaluate({ 'requirements.md': REQUIREMENTS, 'design.md': design, 'execution-log.md': '---\nphase: tasks-breakdown\n---\n' }, approvedBy('requirements.md'));
    expect(result.currentNode).toBe('design');
    const found = result.findings.filter((d) => d.ruleId === 'phase-mismatch');
    expect(found.map((d) => [show(d), d.severity])).toEqual([['execution-log.md:2:8 phase-mismatch', 'error']]);
  });

  it('phase-mismatch (warning): the log lags behind where the artifacts are', () => {
    const result = evaluate({ 'requirements.md': REQUIREMENTS, 'design.md': DESIGN, 'tasks.md': '- [ ] one\n', 'execution-log.md': '---\nphase: design\n---\n' }, approvedBy('requirements.md', 'design.md'));
    expect(result.currentNode).toBe('implementation');
    const found = result.findings.filter((d) => d.ruleId === 'phase-mismatch');
    expect(found.map((d) => [show(d), d.severity])).toEqual([['execution-log.md:2:8 phase-mismatch', 'warning']]);
  });

  it('ok: a log that says needs-review while the work is at any review node', () => {
    const log = '---\nphase: needs-review\n---\n# Log\n## Review cycles\n| # | type | outcome |\n|---|---|---|\n| 1 | self | zero |\n## Verification results\ngreen\n';
    const result = evaluate({ 'requirements.md': REQUIREMENTS, 'design.md': DESIGN, 'tasks.md': '- [x] one\n', 'execution-log.md': log }, approvedBy('requirements.md', 'design.md'));
    expect(result.currentNode).toBe('critic-review');
    expect(result.findings.map((d) => d.ruleId)).not.toContain('phase-mismatch');
  });

  it('phase-mismatch: graph state records a different node than the artifacts give', () => {
    const result = evaluate({ 'requirements.md': REQUIREMENTS }, { recordedNode: 'design' });
    expect(node(result, 'requirements-approval').findings).toContain('graph-state.json:1:1 phase-mismatch');
  });
});

describe('template-residue', () => {
  it('not ok: the log still carries the template comment listing the phases', () => {
    const result = evaluate({ 'requirements.md': '# R\n', 'execution-log.md': '---\nphase: requirements-definition # not-started | brainstorming | requirements-definition\n---\n' });
    expect(result.findings.map(show)).toContain('execution-log.md:2:8 template-residue');
    expect(result.ok).toBe(false);
  });
});

describe('approval-missing / approval-stale', () => {
  it('not ok: front-matter `status: approved` alone does not pass a human node', () => {
    const result = evaluate({ 'requirements.md': REQUIREMENTS });
    expect(node(result, 'requirements-approval')).toEqual({ status: 'current', outcome: 'wait', findings: ['requirements.md:1:1 approval-missing'] });
  });

  it('not ok: an approval by a login without the approver role', () => {
    const result = evaluate({ 'requirements.md': REQUIREMENTS }, { ...approvedBy('requirements.md'), approvers: ['bob'] });
    expect(node(result, 'requirements-approval').findings).toEqual(['requirements.md:1:1 approval-missing']);
  });

  it('not ok: an approval recorded for another digest is stale', () => {
    const result = evaluate({ 'requirements.md': REQUIREMENTS }, { ...approvedBy('requirements.md'), digests: new Map([['requirements.md', 'd-changed']]) });
    expect(node(result, 'requirements-approval')).toEqual({ status: 'current', outcome: 'wait', findings: ['requirements.md:1:1 approval-stale'] });
  });

  it('ok: an approver approved the current digest of bugfix.md', () => {
    const result = evaluate({ 'bugfix.md': REQUIREMENTS }, approvedBy('bugfix.md'));
    expect(node(result, 'requirements-approval')).toEqual({ status: 'passed', outcome: 'pass', findings: [] });
  });
});

describe('approval of an artifact the node does not produce', () => {
  const compiled = compileGraph(
    'graph.yaml',
    ['start: sign-off', 'nodes:', '  - {id: sign-off, phase: design, actor: human, gate: [{approved: design.md}]}', 'edges: []', ''].join('\n'),
  );
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.issues));
  const run = (files: Record<string, string>, extra: Partial<WorkItemInput> = {}) =>
    evaluateWorkItem(compiled.graph, { id: 'w', dir: DIR, files: new Map(Object.entries(files).map(([k, text]) => [k, { text }])), ...extra });

  it('not ok: the artifact is absent, so there is nothing approved', () => {
    const result = run({});
    expect(result.ok).toBe(false);
    expect(node(result, 'sign-off')).toEqual({ status: 'current', outcome: 'block', findings: ['design.md:-:- artifact-missing'] });
  });

  it('ok: the artifact is present and approved', () => {
    expect(run({ 'design.md': DESIGN }, approvedBy('design.md')).ok).toBe(true);
  });
});

/** A work item with every artifact written, its log at `phase`. */
function completeItem(phase: string): Record<string, string> {
  return { 'requirements.md': REQUIREMENTS, 'design.md': DESIGN, 'tasks.md': '# Tasks\n- [x] one\n- [X] two\n', 'execution-log.md': completeLog(phase) };
}
