// `the-loop run` driving the real Claude Code, node by node, against a scripted loopback model:
// the model writes each artifact through Claude Code's own Write and Edit tools, the gate
// decides after each run, a node that inherits its session is resumed with --resume, and the
// choice among declared edges comes back as Claude Code's structured output.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lastMessage, shownToModel } from '../../../../test-fixtures/messages-api/server.js';
import { claudeProject, claudeSandbox, type ClaudeSandbox } from '../test-support/claude-code.js';
import { LOCKED, runBuiltCli } from '../test-support/cli.js';

const ID = 'issue-7';
const DIR = `docs/specs/${ID}`;
const TASKS = `${DIR}/tasks.md`;
const CONFIG = [
  'workflow:',
  // A Claude Code run that hangs is ended by the run itself, well inside the test's own limit.
  '  timeoutSeconds: 20',
  '  graph:',
  '    start: requirements',
  '    nodes:',
  '      - {id: requirements, phase: requirements-definition, actor: agent, produces: requirements.md, gate: [{locked: true}]}',
  '      - {id: tasks, phase: tasks-breakdown, actor: agent, produces: tasks.md, session: inherit, choices: [approval, requirements], gate: [{tasksComplete: true}]}',
  '      - {id: approval, phase: implementation, actor: human, produces: tasks.md, gate: [{approved: tasks.md}]}',
  '    edges:',
  '      - {from: requirements, to: tasks, on: pass}',
  '      - {from: tasks, to: approval, on: pass}',
  '      - {from: tasks, to: requirements, on: rework}',
  '',
].join('\n');

let sandbox: ClaudeSandbox | undefined;
afterEach(async () => {
  expect(sandbox?.server.unexpected()).toEqual([]);
  await sandbox?.close();
  sandbox = undefined;
});

describe('the-loop run drives the real Claude Code', () => {
  it('works each node through Claude Code\'s tools, re-dispatches with the findings, resumes the inherited session, takes the structured choice and parks', async () => {
    sandbox = await claudeSandbox([
      // requirements, a fresh session
      { tool: 'Write', input: { file_path: `${DIR}/requirements.md`, content: LOCKED } },
      { text: 'The requirements are written and approved.' },
      // tasks, attempt 1, resuming that session: one task left open
      { tool: 'Write', input: { file_path: TASKS, content: '# Tasks\n\n- [x] Write the greeting\n- [ ] Test the greeting\n' } },
      { text: 'The tasks are listed.' },
      // tasks, attempt 2: the re-dispatch names the open task
      { tool: 'Read', input: { file_path: TASKS } },
      { tool: 'Edit', input: { file_path: TASKS, old_string: '- [ ] Test the greeting', new_string: '- [x] Test the greeting' } },
      { text: 'Both tasks are done.' },
      // the choice among the declared edges, as structured output
      { tool: 'StructuredOutput', input: { next: 'approval', reason: 'every task is ticked' } },
    ]);
    const dir = await claudeProject({ '.the-loop/harness-config.yaml': CONFIG, [`${DIR}/execution-log.md`]: '---\nphase: requirements-definition\n---\n# Execution log\n' }, ID);

    const run = await runBuiltCli(['run', ID], { cwd: dir, env: sandbox.env, inherit: false, timeoutMs: 60_000 });

    expect(run.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('{'))).toEqual([]);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({
      status: 'parked',
      currentNode: 'approval',
      nodesRun: [
        { node: 'requirements', attempts: 1, outcome: 'pass' },
        { node: 'tasks', attempts: 2, outcome: 'pass' },
        { node: 'approval', attempts: 0, outcome: 'wait', sessionId: null },
      ],
      usage: { inputTokens: 800, outputTokens: 80, costUsd: expect.any(Number) },
    });
    // One conversation: tasks inherited the requirements session, and Claude Code kept its id.
    expect(result.nodesRun[1].sessionId).toBe(result.nodesRun[0].sessionId);

    expect(await readFile(join(dir, TASKS), 'utf8')).toBe('# Tasks\n\n- [x] Write the greeting\n- [x] Test the greeting\n');
    const requests = sandbox.server.messages();
    expect(requests).toHaveLength(8);
    const first = shownToModel(requests[0]!);
    expect(first).toContain(`Node "requirements" of work item ${ID} (${DIR}): phase requirements-definition.`);
    expect(first).toContain(`- ${DIR}/requirements.md artifact-missing: requirements.md is missing.`);
    // the-loop's own hooks stepped aside: the run is the loop here.
    expect(first).not.toContain('SessionStart hook additional context');
    const redispatch = requests[4]!;
    expect(lastMessage(redispatch)).toContain('Node "tasks" of work item issue-7 (docs/specs/issue-7): phase tasks-breakdown, attempt 2 of 5.');
    expect(lastMessage(redispatch)).toContain(`- ${TASKS}:4:1 tasks-incomplete: Task not done: "Test the greeting" ([ ]).`);
    // --resume carried the conversation: the model still sees the requirements node's turn.
    expect(shownToModel(redispatch)).toContain('The requirements are written and approved.');
    const choice = requests[7]!;
    expect(choice.tools?.map((tool) => tool.name)).toContain('StructuredOutput');
    expect(lastMessage(choice)).toContain('You may choose only one of these declared nodes:');

    const state = JSON.parse(await readFile(join(dir, DIR, 'graph-state.json'), 'utf8'));
    expect(state).toMatchObject({ currentNode: 'approval', nodes: { requirements: { attempts: 0 }, tasks: { attempts: 1, outcome: 'pass' } } });
    expect(state.decisions).toEqual([{ node: 'tasks', requested: 'approval', taken: 'approval', via: 'choice', reason: 'every task is ticked', at: expect.any(String) }]);
    const log = await readFile(join(dir, DIR, 'execution-log.md'), 'utf8');
    expect(log).toMatch(/\| tasks \| \[claude\/default\] \| 3 \| 600 \| 60 \|/);
  });
});

describe('the-loop run through an approval of the execution log', () => {
  it("parks for the approver, and the approval survives what the run writes into the log after it: the phase, transitions, run usage and learnings", async () => {
    const LOG = `${DIR}/execution-log.md`;
    const config = [
      'workflow:',
      '  timeoutSeconds: 20',
      '  graph:',
      '    start: tasks',
      '    nodes:',
      '      - {id: tasks, phase: tasks-breakdown, actor: agent, produces: tasks.md, gate: [{tasksComplete: true}]}',
      '      - {id: approval, phase: needs-review, actor: human, produces: execution-log.md, gate: [{approved: execution-log.md}]}',
      '      - {id: complete, phase: complete, actor: code, produces: execution-log.md, gate: [{frontMatter: {phase: complete}}]}',
      '      - {id: learnings, phase: complete, actor: agent, produces: execution-log.md, gate: [{sections: [Learnings]}]}',
      '    edges:',
      '      - {from: tasks, to: approval, on: pass}',
      '      - {from: approval, to: complete, on: pass}',
      '      - {from: complete, to: learnings, on: pass}',
      '',
    ].join('\n');
    sandbox = await claudeSandbox([
      // tasks
      { tool: 'Write', input: { file_path: `${DIR}/tasks.md`, content: '# Tasks\n\n- [x] Write the greeting\n' } },
      { text: 'The task is done.' },
      // learnings, after the approval, in a fresh session
      { tool: 'Read', input: { file_path: LOG } },
      { tool: 'Edit', input: { file_path: LOG, old_string: '## Reviewer briefing', new_string: '## Learnings\n\n- Ask for the approval as soon as the briefing is written.\n\n## Reviewer briefing' } },
      { text: 'The learnings are written.' },
    ]);
    const dir = await claudeProject(
      {
        '.the-loop/harness-config.yaml': config,
        '.the-loop/collaborators.yaml': 'collaborators:\n  - {login: ann, roles: [approver]}\n',
        [LOG]: '---\nphase: tasks-breakdown\n---\n# Execution log\n\n## Reviewer briefing\n\nStart at tasks.md.\n',
      },
      ID,
    );
    const cli = (args: readonly string[]) => runBuiltCli(args, { cwd: dir, env: sandbox!.env, inherit: false, timeoutMs: 60_000 });

    const first = await cli(['run', ID]);
    expect([first.code, JSON.parse(first.stdout)]).toEqual([0, expect.objectContaining({ status: 'parked', currentNode: 'approval' })]);
    // The approval moves the pointer through `complete`, whose entering writes the phase, to the learnings.
    const approved = await cli(['graph', 'approve', ID, 'execution-log.md', '--by', 'ann', '--format', 'json']);
    expect([approved.code, JSON.parse(approved.stdout).currentNode]).toEqual([0, 'learnings']);

    const second = await cli(['run', ID]);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({
      status: 'complete',
      currentNode: null,
      nodesRun: [{ node: 'learnings', attempts: 1, outcome: 'pass' }],
    });
    // What the run wrote after the approval: the phase, the transitions, its usage, a learning.
    const log = await readFile(join(dir, LOG), 'utf8');
    expect(log).toContain('phase: complete');
    expect(log).toMatch(/\| approval \| complete \| pass \|/);
    expect(log).toMatch(/\| learnings \| \[claude\/default\] \| 1 \|/);
    expect(log).toMatch(/- \S+: run \S+ took the work item out of the graph after 1 node/);

    const check = await cli(['check', ID, '--format', 'json']);
    expect([check.code, JSON.parse(check.stdout)]).toEqual([0, expect.objectContaining({ ok: true, currentNode: null, findings: [] })]);
  });
});
