// The first hour of a team, end to end in a fresh git repository: init → new → check names what
// to fill → fill it in → check passes. With the-loop's own lifecycle (approvals, evidence, review
// rounds) through the approver's last gate to its end, and with the kiro preset to a work item
// that is done.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILT_IN_ADAPTERS } from '../harness/adapters.js';
import { git, makeRepo, writeFiles } from '../test-support/cli.js';
import { runInProcess } from '../test-support/in-process.js';

const temps: string[] = [];
afterAll(() => Promise.all(temps.map((dir) => rm(dir, { recursive: true, force: true }))));

interface Finding {
  ruleId: string;
  severity: string;
  file: string;
  line?: number;
  message: string;
}
interface CheckJson {
  ok: boolean;
  currentNode: string | null;
  findings: Finding[];
}

const run = (cwd: string, ...argv: string[]) => runInProcess(argv, { cwd, adapters: BUILT_IN_ADAPTERS, env: { PATH: process.env['PATH'], NO_COLOR: '1' } });

async function check(dir: string, id: string): Promise<{ code: number; doc: CheckJson }> {
  const result = await run(dir, 'check', id, '--format', 'json');
  return { code: result.code, doc: JSON.parse(result.stdout) as CheckJson };
}

// The template's lines that hold a `<placeholder>`, 1-based, outside comments.
function placeholderLines(text: string): number[] {
  return text
    .split('\n')
    .map((line, index) => ({ line: line.replace(/<!--.*?-->/g, ''), number: index + 1 }))
    .filter(({ line }) => /<[a-z][^<>]*>/.test(line))
    .map(({ number }) => number);
}

describe("the first hour with the-loop's own lifecycle", () => {
  it('init → new → check names each placeholder → fill, approve, verify, advance → the approver approves the log → learnings → check is ok at the end', async () => {
    const dir = await makeRepo({});
    temps.push(dir);
    await git(dir, ['init', '-q']);
    expect((await run(dir, 'init')).code).toBe(0);
    // The team lists its approver and declares the check that proves its work items.
    await writeFiles(dir, {
      '.the-loop/collaborators.yaml': 'collaborators:\n  - login: ann\n    roles: [approver]\n',
      'src/greet.mjs': "export const greet = (name) => `Hello, ${name}!`;\n",
      'test/greet.test.mjs': "import { greet } from '../src/greet.mjs';\nif (greet('Ann') !== 'Hello, Ann!') process.exit(1);\n",
    });
    const config = await readFile(join(dir, '.the-loop/harness-config.yaml'), 'utf8');
    await writeFiles(dir, {
      '.the-loop/harness-config.yaml': `${config}\nverification:\n  checks:\n    - id: unit\n      argv: [node, test/greet.test.mjs]\n      covers: [AC1]\n      paths: ["src/**", "test/**"]\n`,
    });

    expect((await run(dir, 'new', 'issue-1')).code).toBe(0);
    const fresh = await readFile(join(dir, 'docs/specs/issue-1/requirements.md'), 'utf8');
    const first = await check(dir, 'issue-1');
    expect(first.code).toBe(1);
    expect(first.doc.currentNode).toBe('requirements-definition');
    // What to fill, exactly: one finding per placeholder line of the template, and nothing else.
    expect(first.doc.findings.map((f) => `${f.ruleId} ${f.file}:${f.line}`)).toEqual(placeholderLines(fresh).map((line) => `template-residue docs/specs/issue-1/requirements.md:${line}`));

    await writeFiles(dir, {
      'docs/specs/issue-1/requirements.md': fresh
        .replace('status: draft', 'status: approved')
        .replace('<what is wrong or missing today, and for whom>', 'Users are greeted without their name.')
        .replace('WHEN <a situation> THEN the system SHALL <the behaviour that must hold>', 'WHEN a name is given THEN the system SHALL greet that name')
        .replace('**<boundary name>**: <what could go wrong at it>', '**Name input**: text from the caller, never evaluated')
        .replace('<what this work item will not do>', 'Greetings in other languages.'),
    });
    const filled = await check(dir, 'issue-1');
    expect(filled.doc.currentNode).toBe('requirements-approval');
    expect(filled.doc.findings.map((f) => f.ruleId)).toEqual(['approval-missing']);
    expect(filled.doc.findings[0]?.message).toBe('No approver has approved requirements.md.');

    // The rest of the lifecycle, written as a team would from the templates.
    const template = async (name: string) => (await readFile(join(dir, '.the-loop/templates', name), 'utf8')).replaceAll('{{id}}', 'issue-1');
    const design = (await template('design.md'))
      .replace('status: draft', 'status: approved')
      .replace('<the approach in a paragraph>', 'One pure function.')
      .replace('**<component>**: <its responsibility and interface>', '**greet**: `greet(name)` returns the greeting')
      .replace('<how each boundary is protected>', 'Name input is interpolated as text, never evaluated.')
      .replace('<what is tested, at which level>', 'A unit test of greet.');
    const tasks = (await template('tasks.md')).replace('- [ ] <the first step, small enough to finish and tick>', '- [x] Write greet').replace('- [ ] <the next step>', '- [x] Test greet');
    // The log's phase is left as the template has it: the-loop keeps it in step. Learnings are
    // written once the work is approved and done.
    const log = (await template('execution-log.md'))
      .replace(/## Design critic review\n\n<!--.*?-->\n\n/s, '')
      .replace(/\n## Learnings\n\n<.*?>\n$/s, '')
      .replace('|---|---|---|', '|---|---|---|\n| 1 | self | zero |\n| 2 | critic | zero |\n| 3 | security | zero |')
      .replace('<the user documentation that was updated, or why none was needed>', 'None: no user-visible text changed.')
      .replace('<where a reviewer should start, and what deserves the closest look>', 'Start at src/greet.mjs.');
    await writeFiles(dir, { 'docs/specs/issue-1/design.md': design, 'docs/specs/issue-1/tasks.md': tasks, 'docs/specs/issue-1/execution-log.md': log });
    await git(dir, ['add', '-A']);
    await git(dir, ['commit', '-qm', 'Greet by name']);
    for (const artifact of ['requirements.md', 'design.md']) expect((await run(dir, 'graph', 'approve', 'issue-1', artifact, '--by', 'ann')).code).toBe(0);
    expect((await run(dir, 'verify', 'issue-1')).code).toBe(0);
    // The recorded pointer catches up with the artifacts and parks at the last human gate.
    const advanced = await run(dir, 'graph', 'advance', 'issue-1');
    expect(advanced.stdout).toContain('parked at human-approval: waiting on a person');

    // Everything an agent can do is done: the gate CI and the hooks apply passes, and what is
    // left is the approver's.
    const gate = await run(dir, 'check', 'issue-1', '--fail-on', 'block', '--format', 'json');
    expect(gate.code).toBe(0);
    const waiting = JSON.parse(gate.stdout) as CheckJson & { nodes: { node: string; status: string }[] };
    expect(waiting.currentNode).toBe('human-approval');
    expect(waiting.nodes.filter((n) => n.status === 'passed').map((n) => n.node)).toEqual([
      'requirements-definition', 'requirements-approval', 'design', 'design-approval', 'tasks-breakdown', 'implementation',
      'verification', 'self-review', 'critic-review', 'security-review', 'evidence', 'capability-docs', 'reviewer-briefing',
    ]);
    expect(waiting.findings.map((f) => `${f.ruleId} ${f.file}`)).toEqual(['approval-missing docs/specs/issue-1/execution-log.md']);

    // The approver approves the log, and the pointer moves on through \`complete\`, whose entering
    // writes the phase its gate reads, to the learnings. the-loop's own edits (that phase, the
    // Phase transitions rows) leave the approval standing.
    const approved = await run(dir, 'graph', 'approve', 'issue-1', 'execution-log.md', '--by', 'ann', '--format', 'json');
    expect(approved.code).toBe(0);
    expect(JSON.parse(approved.stdout)).toMatchObject({ ok: true, currentNode: 'learnings' });
    const afterApproval = await readFile(join(dir, 'docs/specs/issue-1/execution-log.md'), 'utf8');
    expect(afterApproval).toContain('phase: complete');
    expect(afterApproval).toMatch(/\| human-approval \| complete \| pass \|/);
    const learning = await check(dir, 'issue-1');
    expect([learning.code, learning.doc.currentNode, learning.doc.findings.map((f) => `${f.ruleId} ${f.severity}`)]).toEqual([1, 'learnings', ['section-missing error']]);

    // The last agent node writes what the next work item should do differently.
    await writeFiles(dir, { 'docs/specs/issue-1/execution-log.md': `${afterApproval}\n## Learnings\n\n- Keep each work item this small.\n` });
    const finished = await run(dir, 'graph', 'advance', 'issue-1', '--format', 'json');
    expect([finished.code, JSON.parse(finished.stdout).currentNode]).toEqual([0, null]);
    const done = await check(dir, 'issue-1');
    expect([done.code, done.doc.ok, done.doc.currentNode, done.doc.findings]).toEqual([0, true, null, []]);

    // An agent that changes what the approver read is caught, however small the change.
    const complete = await readFile(join(dir, 'docs/specs/issue-1/execution-log.md'), 'utf8');
    await writeFiles(dir, { 'docs/specs/issue-1/execution-log.md': complete.replace('Start at src/greet.mjs.', 'Start at src/greet.mjs; nothing else needs a look.') });
    const forged = await check(dir, 'issue-1');
    expect([forged.code, forged.doc.ok, forged.doc.currentNode]).toEqual([1, false, 'human-approval']);
    // The log's phase and the recorded pointer now claim more than the artifacts support, too.
    expect(forged.doc.findings.map((f) => `${f.ruleId} ${f.file}`)).toEqual([
      'approval-stale docs/specs/issue-1/execution-log.md',
      'phase-mismatch docs/specs/issue-1/execution-log.md',
      'phase-mismatch docs/specs/issue-1/graph-state.json',
    ]);
  }, 60_000);
});

describe('the first hour with the kiro preset', () => {
  it('init --preset kiro → new → check names the placeholders → requirements, design and tasks → check passes', async () => {
    const dir = await makeRepo({});
    temps.push(dir);
    expect((await run(dir, 'init', '--preset', 'kiro')).code).toBe(0);
    expect((await run(dir, 'new', 'csv-export')).stdout).toContain('created .kiro/specs/csv-export/requirements.md');
    const fresh = await readFile(join(dir, '.kiro/specs/csv-export/requirements.md'), 'utf8');
    const first = await check(dir, 'csv-export');
    expect([first.code, first.doc.currentNode]).toEqual([1, 'requirements']);
    expect(first.doc.findings.map((f) => `${f.ruleId} ${f.line}`)).toEqual(placeholderLines(fresh).map((line) => `template-residue ${line}`));

    await writeFiles(dir, {
      '.kiro/specs/csv-export/requirements.md': fresh
        .replace('<what this feature is and why it is needed>', 'Owners export transactions for their accountant.')
        .replace('As a <kind of user>, I want <a capability>, so that <the benefit>', 'As an owner, I want a CSV export, so that my accountant can import it')
        .replace('WHEN <a situation> THEN the system SHALL <the behaviour that must hold>', 'WHEN an owner exports a date range THEN the system SHALL download one row per transaction'),
      '.kiro/specs/csv-export/design.md': '# Design Document\n\n## Overview\n\nA streamed CSV response.\n',
      '.kiro/specs/csv-export/tasks.md': '# Implementation Plan\n\n- [x] 1. Add the export endpoint\n  - _Requirements: 1.1_\n- [ ]* 2. Load test with 50,000 rows\n',
    });
    const done = await check(dir, 'csv-export');
    expect([done.code, done.doc.ok, done.doc.currentNode]).toEqual([0, true, null]);
    // The optional task is shown, never blocking.
    expect(done.doc.findings.map((f) => `${f.ruleId} ${f.line}`)).toEqual(['optional-task-open 5']);
  });
});
