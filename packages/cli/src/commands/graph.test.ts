import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, readJson, runWithoutTokens, writeFiles } from '../test-support/graph-cli.js';

const ID = 'issue-7';
const DIR = `docs/specs/${ID}`;
const REQUIREMENTS = '---\nstatus: approved\n---\n# Requirements\n\n## Security considerations\n\n- **session tokens**: stored server-side\n';
const LOG = '---\nphase: requirements-definition   # not-started | brainstorming | design\nowner: ann\n---\n# Execution log\n\nNext: design\n';
const COLLABORATORS = 'collaborators:\n  - login: alice\n    roles: [approver]\n  - login: bob\n    roles: [lead]\n';

// A configuration whose graph extends the default one with these node and edge lines.
const extendingDefault = (nodes: string[], edges: string[]): string =>
  ['workflow:', '  graph:', '    extends: default', '    nodes:', ...nodes.map((l) => `      ${l}`), '    edges:', ...edges.map((l) => `      ${l}`), ''].join('\n');

function repo(extra: Record<string, string> = {}): Promise<string> {
  return makeRepo({
    [`${DIR}/requirements.md`]: REQUIREMENTS,
    [`${DIR}/execution-log.md`]: LOG,
    '.the-loop/collaborators.yaml': COLLABORATORS,
    ...extra,
  });
}

type State = { currentNode: string | null; approvals: { artifact: string; digest: string; by: string }[]; forced: { to: string; reason: string }[]; escalated: { node: string; reason: string } | null; nodes: Record<string, { attempts: number }> };
const state = (root: string) => readJson<State>(join(root, DIR, 'graph-state.json'));

describe('graph advance / approve / complete', () => {
  it('parks at a human node; front-matter status: approved alone does not pass it', async () => {
    const root = await repo();
    const advance = await runWithoutTokens(['graph', 'advance', ID, '--format', 'json'], { cwd: root });
    expect(advance.code).toBe(0);
    expect(advance.json()).toMatchObject({ schemaVersion: 1, currentNode: 'requirements-approval', parked: { node: 'requirements-approval' } });
    const claim = await runWithoutTokens(['graph', 'complete', ID, '--node', 'requirements-approval', '--format', 'json'], { cwd: root });
    expect(claim.code).toBe(1);
    expect(claim.json<{ gate: { outcome: string; findings: { ruleId: string }[] } }>().gate).toMatchObject({ outcome: 'wait', findings: [{ ruleId: 'approval-missing' }] });
    expect((await state(root)).currentNode).toBe('requirements-approval');
    const check = await runWithoutTokens(['check', ID, '--format', 'json'], { cwd: root });
    const approval = check.json<{ nodes: { node: string; outcome: string; findings: { ruleId: string }[] }[] }>().nodes.find((n) => n.node === 'requirements-approval');
    expect(approval?.outcome).toBe('wait');
    expect(approval?.findings.map((f) => f.ruleId)).toEqual(['approval-missing']);
  });

  it('records an approver\'s approval with the file digest and refuses anyone else', async () => {
    const root = await repo();
    const bob = await runWithoutTokens(['graph', 'approve', ID, 'requirements.md', '--by', 'bob'], { cwd: root });
    expect(bob.code).toBe(2);
    expect(bob.stderr).toContain('"bob" is not listed with the approver role in .the-loop/collaborators.yaml (approvers: alice)');
    const alice = await runWithoutTokens(['graph', 'approve', ID, 'requirements.md', '--by', 'alice', '--format', 'json'], { cwd: root });
    expect(alice.code).toBe(0);
    const { createHash } = await import('node:crypto');
    expect((await state(root)).approvals).toEqual([{ artifact: 'requirements.md', digest: createHash('sha256').update(REQUIREMENTS).digest('hex'), by: 'alice', at: expect.any(String) }]);
    // Approving moves the pointer along the gates that pass now, and reports the gate it stopped at.
    expect(alice.json()).toMatchObject({ command: 'approve', from: 'brainstorming', currentNode: 'design', ok: true, gate: { node: 'design', outcome: 'block', stalled: false } });
    expect(alice.json<{ taken: { to: string }[] }>().taken.map((t) => t.to)).toEqual(['requirements-definition', 'requirements-approval', 'design']);
    expect((await state(root)).nodes['design']?.attempts).toBe(0);
    const claim = await runWithoutTokens(['graph', 'complete', ID, '--node', 'design'], { cwd: root });
    expect(claim.code).toBe(1);
    expect(claim.stdout).toContain('artifact-missing');
  });

  it('loses no update when several commands write the same state at once', async () => {
    const root = await repo();
    const runs = await Promise.all(Array.from({ length: 6 }, () => runWithoutTokens(['graph', 'approve', ID, 'requirements.md', '--by', 'alice'], { cwd: root })));
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0, 0, 0, 0]);
    expect((await state(root)).approvals).toHaveLength(6);
  });

  it('an opt-in node gates the work item only once a collaborator selects it', async () => {
    const root = await repo({ [`${DIR}/design.md`]: '---\nstatus: approved\n---\n# Design\n\n## Security design\n\nsession tokens live server-side.\n' });
    await runWithoutTokens(['graph', 'approve', ID, 'requirements.md', '--by', 'alice'], { cwd: root });
    await runWithoutTokens(['graph', 'approve', ID, 'design.md', '--by', 'alice'], { cwd: root });
    const before = await runWithoutTokens(['check', ID, '--format', 'json', '--recompute'], { cwd: root });
    expect(before.json<{ currentNode: string }>().currentNode).toBe('tasks-breakdown');
    const stranger = await runWithoutTokens(['graph', 'opt-in', ID, 'design-critic-review', '--by', 'mallory'], { cwd: root });
    expect(stranger.code).toBe(2);
    expect((await runWithoutTokens(['graph', 'opt-in', ID, 'design', '--by', 'bob'], { cwd: root })).code).toBe(2);
    expect((await runWithoutTokens(['graph', 'opt-in', ID, 'design-critic-review', '--by', 'bob'], { cwd: root })).code).toBe(0);
    const after = await runWithoutTokens(['check', ID, '--format', 'json', '--recompute'], { cwd: root });
    expect(after.json<{ currentNode: string }>().currentNode).toBe('design-critic-review');
  });

  it('makes an approval stale when the approved file changes (tamper)', async () => {
    const root = await repo();
    await runWithoutTokens(['graph', 'approve', ID, 'requirements.md', '--by', 'alice'], { cwd: root });
    await runWithoutTokens(['graph', 'advance', ID], { cwd: root });
    await writeFile(join(root, DIR, 'requirements.md'), `${REQUIREMENTS}\n- **admin API**: new, unreviewed\n`);
    const check = await runWithoutTokens(['check', ID, '--format', 'json'], { cwd: root });
    expect(check.code).toBe(1);
    const result = check.json<{ currentNode: string; findings: { ruleId: string; file: string; actual?: string }[] }>();
    expect(result.currentNode).toBe('requirements-approval');
    expect(result.findings.map((f) => f.ruleId)).toEqual(expect.arrayContaining(['approval-stale', 'phase-mismatch']));
    expect(result.findings.find((f) => f.ruleId === 'phase-mismatch' && f.file.endsWith('graph-state.json'))).toMatchObject({ actual: 'design' });
    const recompute = await runWithoutTokens(['check', ID, '--format', 'json', '--recompute'], { cwd: root });
    expect(recompute.json<{ findings: { file: string }[] }>().findings.map((f) => f.file)).not.toContain(`${DIR}/graph-state.json`);
  });

  it('keeps the execution log\'s phase and Phase transitions table in step with the graph', async () => {
    const root = await repo();
    await runWithoutTokens(['graph', 'approve', ID, 'requirements.md', '--by', 'alice'], { cwd: root });
    await runWithoutTokens(['graph', 'advance', ID], { cwd: root });
    const log = await readFile(join(root, DIR, 'execution-log.md'), 'utf8');
    expect(log).toMatch(/^---\nphase: design # not-started \| brainstorming \| design\nowner: ann\n---\n# Execution log\n\nNext: design\n/);
    const rows = log.split('\n').filter((l) => /^\| \d{4}-/.test(l)).map((l) => l.split('|').slice(2, 5).map((c) => c.trim()));
    expect(rows).toEqual([
      ['(start)', 'brainstorming', 'start'],
      ['brainstorming', 'requirements-definition', 'pass'],
      ['requirements-definition', 'requirements-approval', 'pass'],
      ['requirements-approval', 'design', 'pass'],
    ]);
  });

  it('escalates on the same findings twice running and persists it', async () => {
    const root = await repo();
    await runWithoutTokens(['graph', 'approve', ID, 'requirements.md', '--by', 'alice'], { cwd: root });
    await writeFiles(root, { [`${DIR}/design.md`]: '# Design\n\n## Overview\n\nText.\n' });
    expect((await state(root)).currentNode).toBe('design');
    const once = await runWithoutTokens(['graph', 'complete', ID, '--node', 'design'], { cwd: root });
    expect(once.code).toBe(1);
    expect((await state(root)).currentNode).toBe('design');
    const again = await runWithoutTokens(['graph', 'complete', ID, '--node', 'design', '--format', 'json'], { cwd: root });
    expect(again.code).toBe(1);
    const s = await state(root);
    expect(s.currentNode).toBe('escalated');
    expect(s.escalated).toMatchObject({ node: 'design', reason: 'the same findings twice running at "design"' });
    expect(s.nodes['design']?.attempts).toBe(2);
    const stuck = await runWithoutTokens(['graph', 'advance', ID], { cwd: root });
    expect(stuck.code).toBe(2);
    expect(stuck.stderr).toContain('escalated');
  });

  it('force is audited in state and the log, and forges no approval', async () => {
    const root = await repo();
    const forced = await runWithoutTokens(['graph', 'force', ID, '--to', 'implementation', '--reason', 'spike agreed with the team', '--by', 'bob', '--format', 'json'], { cwd: root });
    expect(forced.code).toBe(0);
    const s = await state(root);
    expect(s.currentNode).toBe('implementation');
    expect(s.forced).toEqual([{ from: 'brainstorming', to: 'implementation', reason: 'spike agreed with the team', by: 'bob', at: expect.any(String) }]);
    expect(s.approvals).toEqual([]);
    expect(await readFile(join(root, DIR, 'execution-log.md'), 'utf8')).toContain('| brainstorming | implementation | forced | forced: spike agreed with the team |');
    const unknown = await runWithoutTokens(['graph', 'force', ID, '--to', 'nowhere', '--reason', 'x'], { cwd: root });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('node "nowhere" is not declared');
  });

  it('refuses an undeclared transition and names the declared ones', async () => {
    const root = await repo();
    await runWithoutTokens(['graph', 'advance', ID], { cwd: root });
    const result = await runWithoutTokens(['graph', 'advance', ID, '--outcome', 'changes-requested', '--to', 'design'], { cwd: root });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('requirements-approval → design is not declared');
    expect(result.stderr).toContain('declared: pass → design, changes-requested → requirements-definition');
    const routed = await runWithoutTokens(['graph', 'advance', ID, '--outcome', 'changes-requested', '--format', 'json'], { cwd: root });
    expect(routed.json()).toMatchObject({ currentNode: 'requirements-definition', taken: [{ from: 'requirements-approval', to: 'requirements-definition', on: 'changes-requested' }] });
  });

  it('a corrupt state file is an error naming it, never a reset; check fails closed', async () => {
    const root = await repo({ [`${DIR}/graph-state.json`]: '{\n  "schemaVersion": 1,\n  "workItem": "issue-7",\n  "currentNode": 42\n' });
    const advance = await runWithoutTokens(['graph', 'advance', ID], { cwd: root });
    expect(advance.code).toBe(2);
    expect(advance.stderr).toContain(`${DIR}/graph-state.json:`);
    expect(await readFile(join(root, DIR, 'graph-state.json'), 'utf8')).toContain('"currentNode": 42');
    const check = await runWithoutTokens(['check', ID, '--format', 'json', '--fail-on', 'block'], { cwd: root });
    expect(check.code).toBe(1);
    expect(check.json<{ ok: boolean; findings: { ruleId: string; file: string }[] }>().findings).toEqual(expect.arrayContaining([expect.objectContaining({ ruleId: 'graph-state-invalid', file: `${DIR}/graph-state.json` })]));
  });

  it('validates ids and reports a broken collaborators file with its line', async () => {
    const bad = await runWithoutTokens(['graph', 'advance', '../x'], { cwd: await repo() });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('names a path outside the spec root');
    const root = await repo({ '.the-loop/collaborators.yaml': 'collaborators:\n  - login: alice\n    roles: approver\n' });
    const broken = await runWithoutTokens(['graph', 'approve', ID, 'requirements.md', '--by', 'alice'], { cwd: root });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain('.the-loop/collaborators.yaml:3:');
  });
});

describe('forgeries an agent with a shell might try', () => {
  const DESIGN = '---\nstatus: approved\n---\n# Design\n\n## Security design\n\nsession tokens live server-side.\n';

  it('a human node without a gate is no gate: the graph does not compile, so nothing walks through it', async () => {
    const root = await repo({
      '.the-loop/harness-config.yaml': extendingDefault(['- {id: review, phase: needs-review, actor: human}'], ['- {from: design, to: review, on: pass}', '- {from: review, to: design-approval, on: pass}']),
      [`${DIR}/design.md`]: DESIGN,
    });
    for (const args of [['check', ID], ['graph', 'advance', ID], ['graph', 'complete', ID, '--node', 'design']]) {
      const result = await runWithoutTokens(args, { cwd: root });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/\.the-loop\/harness-config\.yaml:5:\d+ +human node "review" has no gate predicate only a person can satisfy/);
    }
    await expect(readFile(join(root, DIR, 'graph-state.json'), 'utf8')).rejects.toThrow();
  });

  it('under approvals.source: github, a hand-written approval with the right digest passes nothing, and graph approve is refused', async () => {
    const root = await repo({ '.the-loop/harness-config.yaml': 'github: {repo: acme/app, port: rest, apiUrl: "http://127.0.0.1:1"}\napprovals: {source: github}\n' });
    await runWithoutTokens(['graph', 'advance', ID], { cwd: root });
    expect((await state(root)).currentNode).toBe('requirements-approval');
    const { createHash } = await import('node:crypto');
    const path = join(root, DIR, 'graph-state.json');
    const forged = { ...(await readJson<Record<string, unknown>>(path)), approvals: [{ artifact: 'requirements.md', digest: createHash('sha256').update(REQUIREMENTS).digest('hex'), by: 'alice', at: '2026-01-01T00:00:00.000Z' }] };
    await writeFile(path, `${JSON.stringify(forged, null, 2)}\n`);
    const advance = await runWithoutTokens(['graph', 'advance', ID, '--format', 'json'], { cwd: root });
    expect(advance.json()).toMatchObject({ currentNode: 'requirements-approval', gate: { node: 'requirements-approval', outcome: 'wait' } });
    const check = await runWithoutTokens(['check', ID, '--format', 'json'], { cwd: root });
    const findings = check.json<{ findings: { ruleId: string; severity: string; message: string }[] }>().findings;
    expect(findings.map((f) => f.ruleId)).toEqual(expect.arrayContaining(['approval-ignored', 'approval-missing']));
    expect(findings.find((f) => f.ruleId === 'approval-missing')?.message).toContain('neither GITHUB_TOKEN nor GH_TOKEN is set');
    const approve = await runWithoutTokens(['graph', 'approve', ID, 'requirements.md', '--by', 'alice'], { cwd: root });
    expect(approve.code).toBe(2);
    expect(approve.stderr).toContain('approvals come from the pull request');
    expect((await state(root)).approvals).toHaveLength(1);
  });

  it('a pointer forged ahead of the artifacts fails the gate; one an approval left behind does not', async () => {
    const root = await repo({ [`${DIR}/design.md`]: DESIGN });
    await rm(join(root, DIR, 'execution-log.md'));
    await runWithoutTokens(['graph', 'advance', ID], { cwd: root });
    // The approval recorded without moving the pointer, as an older graph approve left it.
    const { createHash } = await import('node:crypto');
    const path = join(root, DIR, 'graph-state.json');
    const lagging = { ...(await readJson<Record<string, unknown>>(path)), approvals: [{ artifact: 'requirements.md', digest: createHash('sha256').update(REQUIREMENTS).digest('hex'), by: 'alice', at: '2026-01-01T00:00:00.000Z' }] };
    await writeFile(path, `${JSON.stringify(lagging, null, 2)}\n`);
    const behind = await runWithoutTokens(['check', ID, '--fail-on', 'block', '--format', 'json'], { cwd: root });
    expect(behind.code).toBe(0);
    const result = behind.json<{ currentNode: string; findings: { ruleId: string; severity: string; file: string }[] }>();
    expect(result.currentNode).toBe('design-approval');
    expect(result.findings.filter((f) => f.file.endsWith('graph-state.json'))).toEqual([expect.objectContaining({ ruleId: 'phase-mismatch', severity: 'warning' })]);
    const status = await runWithoutTokens(['graph', 'status', ID, '--format', 'json'], { cwd: root });
    expect(status.json()).toMatchObject({ recordedNode: 'requirements-approval', derivedNode: 'design-approval', agrees: false, pointer: 'behind' });
    await writeFile(path, `${JSON.stringify({ ...lagging, currentNode: 'tasks-breakdown' }, null, 2)}\n`);
    const ahead = await runWithoutTokens(['check', ID, '--fail-on', 'block', '--format', 'json'], { cwd: root });
    expect(ahead.code).toBe(1);
    expect(ahead.json<{ findings: { ruleId: string; severity: string; file: string }[] }>().findings.filter((f) => f.file.endsWith('graph-state.json'))).toEqual([expect.objectContaining({ ruleId: 'phase-mismatch', severity: 'error', actual: 'tasks-breakdown' })]);
  });
});

describe('graph show and repository graphs', () => {
  it('prints the graph in its YAML shape and as mermaid with the work item\'s node highlighted', async () => {
    const root = await repo();
    const json = await runWithoutTokens(['graph', 'show', '--format', 'json'], { cwd: root });
    expect(json.code).toBe(0);
    const doc = json.json<{ schemaVersion: number; start: string; nodes: { id: string }[]; edges: { from: string; to: string; on: string }[] }>();
    expect(doc.start).toBe('brainstorming');
    expect(doc.edges).toContainEqual({ from: 'design-approval', to: 'design', on: 'changes-requested' });
    await runWithoutTokens(['graph', 'advance', ID], { cwd: root });
    const mermaid = await runWithoutTokens(['graph', 'show', ID, '--format', 'mermaid'], { cwd: root });
    expect(mermaid.stdout.split('\n')[0]).toBe('stateDiagram-v2');
    expect(mermaid.stdout).toContain('class requirements_approval current');
  });

  it('uses a repository graph that extends the default one', async () => {
    const root = await repo({
      '.the-loop/harness-config.yaml': extendingDefault(
        ['- id: threat-model', '  phase: design', '  actor: agent', '  produces: threat-model.md'],
        ['- {from: requirements-approval, to: threat-model, on: pass}', '- {from: threat-model, to: design, on: pass}'],
      ),
    });
    await runWithoutTokens(['graph', 'approve', ID, 'requirements.md', '--by', 'alice'], { cwd: root });
    const advance = await runWithoutTokens(['graph', 'advance', ID, '--format', 'json'], { cwd: root });
    expect(advance.json()).toMatchObject({ currentNode: 'threat-model', gate: { node: 'threat-model', outcome: 'block', findings: [{ ruleId: 'artifact-missing' }] } });
    const show = await runWithoutTokens(['graph', 'show', '--format', 'json'], { cwd: root });
    expect(show.json<{ edges: unknown[] }>().edges).toContainEqual({ from: 'threat-model', to: 'design', on: 'pass' });
  });

  it('takes an agent\'s declared choice, falls back on anything else, and records both', async () => {
    const config = [
      'workflow:',
      '  graph:',
      '    start: review',
      '    nodes:',
      '      - {id: review, phase: review, actor: agent, produces: review.md, choices: [ship, rework]}',
      '      - {id: rework, phase: build, actor: agent, produces: rework.md}',
      '      - {id: ship, phase: done, actor: agent, produces: ship.md}',
      '    edges:',
      '      - {from: review, to: ship, on: pass}',
      '      - {from: review, to: rework, on: needs-work}',
      '      - {from: rework, to: review, on: pass}',
      '',
    ].join('\n');
    const root = await repo({ '.the-loop/harness-config.yaml': config, [`${DIR}/review.md`]: '# Review\n' });
    const chosen = await runWithoutTokens(['graph', 'advance', ID, '--choice', 'rework', '--format', 'json'], { cwd: root });
    expect(chosen.json()).toMatchObject({ currentNode: 'rework', taken: [{ from: 'review', to: 'rework', on: 'needs-work' }] });
    await runWithoutTokens(['graph', 'force', ID, '--to', 'review', '--reason', 'second pass'], { cwd: root });
    const bogus = await runWithoutTokens(['graph', 'advance', ID, '--choice', 'nowhere', '--format', 'json'], { cwd: root });
    const doc = bogus.json<{ currentNode: string; effects: { kind: string; message?: string }[]; state: { decisions: unknown[] } }>();
    expect(doc.currentNode).toBe('ship');
    expect(doc.effects.find((e) => e.kind === 'log')?.message).toContain('choice "nowhere" is not one of ship, rework');
    expect(doc.state.decisions).toEqual([
      { node: 'review', requested: 'rework', taken: 'rework', via: 'choice', at: expect.any(String) },
      { node: 'review', requested: 'nowhere', taken: 'ship', via: 'fallback', reason: 'choice "nowhere" is not one of ship, rework', at: expect.any(String) },
    ]);
    const status = await runWithoutTokens(['graph', 'status', ID, '--format', 'json'], { cwd: root });
    expect(status.json()).toMatchObject({ schemaVersion: 1, workItem: ID, recordedNode: 'ship', derivedNode: 'ship', agrees: true });
  });

  it('reports every graph error with its YAML line; a typo is never a weaker gate', async () => {
    const root = await repo({
      '.the-loop/harness-config.yaml': extendingDefault(
        ['- id: design', '  phase: design', '  actor: agent', '  produces: design.md', '  gate:', '    - sectons: ["Security design"]'],
        ['- {from: design, to: nowhere, on: pass}'],
      ),
    });
    for (const args of [['graph', 'show'], ['check', ID], ['graph', 'advance', ID]]) {
      const result = await runWithoutTokens(args, { cwd: root });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/\.the-loop\/harness-config\.yaml:10:\d+ +unknown gate predicate "sectons" \(did you mean "sections"\?\)/);
      expect(result.stderr).toMatch(/\.the-loop\/harness-config\.yaml:12:\d+ +edge to unknown node "nowhere"/);
    }
  });
});
