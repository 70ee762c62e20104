// The installed Claude Code hooks, run by the real Claude Code CLI against a scripted
// loopback model: what the model is shown is read from the requests it received.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lastMessage, shownToModel } from '../../../../test-fixtures/messages-api/server.js';
import { claudeProject, claudeSandbox, HEADLESS, type ClaudeSandbox } from '../test-support/claude-code.js';
import { graphConfig, LOCKED, TASKS_OPEN } from '../test-support/cli.js';

const CONFIG = '.the-loop/harness-config.yaml';
const TASKS = 'docs/specs/issue-7/tasks.md';
const STOP_HOOK = 'Stop hook blocking error from command: ""$CLAUDE_PROJECT_DIR"/node_modules/.bin/the-loop hook Stop --harness claude --repo "$CLAUDE_PROJECT_DIR""';
const TWO_OPEN = '# Tasks\n\n- [ ] Write the greeting\n- [ ] Test the greeting\n';

let sandbox: ClaudeSandbox | undefined;
afterEach(async () => {
  // Nothing but the Messages API may be asked for, through the base URL or the proxy trap.
  expect(sandbox?.server.unexpected()).toEqual([]);
  await sandbox?.close();
  sandbox = undefined;
});

/** A repository on branch issue-7 (the hooks find the work item by the branch name). */
const project = (files: Record<string, string>, config = graphConfig()) => claudeProject({ [CONFIG]: config, ...files }, 'issue-7');

const escalation = async (dir: string) => JSON.parse(await readFile(join(dir, 'docs/specs/issue-7/graph-state.json'), 'utf8').catch(() => '{}'))['escalated'];

describe('Claude Code runs the installed hooks', () => {
  it('validates an artifact the agent writes with its Write tool and shows the findings to the model', async () => {
    sandbox = await claudeSandbox(
      [
        { tool: 'Write', input: { file_path: 'docs/specs/issue-7/requirements.md', content: '---\nstatus: draft\n---\n# Requirements\n\nGreet the user.\n' } },
        { text: 'Drafted the requirements; they need an approver.' },
      ],
      { text: 'Waiting for an approver.' },
    );
    const dir = await project({ [TASKS]: TASKS_OPEN }, graphConfig({ cap: 1 }));

    const run = await sandbox.claude([...HEADLESS, 'Draft the requirements.'], { cwd: dir });

    expect(run.code).toBe(0);
    expect(await readFile(join(dir, 'docs/specs/issue-7/requirements.md'), 'utf8')).toContain('status: draft');
    const afterWrite = lastMessage(sandbox.server.messages()[1]!);
    expect(afterWrite).toContain('PostToolUse:Write hook additional context: the-loop checked docs/specs/issue-7/requirements.md: 1 finding.');
    expect(afterWrite).toContain('- docs/specs/issue-7/requirements.md:2:9 artifact-unlocked: requirements.md is not locked: front-matter status is "draft".');
  });

  it('shows the node, the assignment and the unmet findings at session start and on the prompt, blocks the stop with them and the claim command, and lets the agent stop once it ticks them with Edit', async () => {
    sandbox = await claudeSandbox([
      { text: 'The greeting is done.' },
      { tool: 'Read', input: { file_path: TASKS } },
      { tool: 'Edit', input: { file_path: TASKS, old_string: '- [ ] Write the greeting', new_string: '- [x] Write the greeting' } },
      { tool: 'Edit', input: { file_path: TASKS, old_string: '- [ ] Test the greeting', new_string: '- [x] Test the greeting' } },
      { text: 'Both tasks are ticked.' },
    ]);
    const dir = await project({ 'docs/specs/issue-7/requirements.md': LOCKED, [TASKS]: TWO_OPEN });

    const run = await sandbox.claude([...HEADLESS, 'Finish issue-7.'], { cwd: dir });

    expect(run.code).toBe(0);
    expect(run.result).toMatchObject({ is_error: false, result: 'Both tasks are ticked.' });
    const requests = sandbox.server.messages();
    const first = shownToModel(requests[0]!);
    const context = [
      'the-loop: work item issue-7 (docs/specs/issue-7) is at node "implementation" (phase implementation, actor agent).',
      'Assignment: Write tasks.md in docs/specs/issue-7 so that its gate passes: every task ticked.',
      'Unmet now (2):',
      '- docs/specs/issue-7/tasks.md:3:1 tasks-incomplete: Task not done: "Write the greeting" ([ ]).',
      '- docs/specs/issue-7/tasks.md:4:1 tasks-incomplete: Task not done: "Test the greeting" ([ ]).',
      'When the gate passes, claim the node with: the-loop graph complete issue-7 --node implementation',
    ].join('\n');
    expect(first).toContain(`SessionStart hook additional context: ${context}`);
    expect(first).toContain(`UserPromptSubmit hook additional context: ${context}`);
    expect(first).toContain('Finish issue-7.');
    // One stop blocked; the stop after the edits was let through, so no sixth request.
    expect(requests).toHaveLength(5);
    const blocked = lastMessage(requests[1]!);
    expect(blocked).toContain(`${STOP_HOOK}: Work item issue-7 is not done: the gate of node "implementation" is not met.`);
    expect(blocked).toContain('- docs/specs/issue-7/tasks.md:3:1 tasks-incomplete: Task not done: "Write the greeting" ([ ]).');
    expect(blocked).toContain('- docs/specs/issue-7/tasks.md:4:1 tasks-incomplete: Task not done: "Test the greeting" ([ ]).');
    expect(blocked).toContain('When the gate passes, claim the node with: the-loop graph complete issue-7 --node implementation');
    expect(await readFile(join(dir, TASKS), 'utf8')).toBe('# Tasks\n\n- [x] Write the greeting\n- [x] Test the greeting\n');
    expect(await escalation(dir)).toBeUndefined();
  });

  it('lets an agent that makes no progress go at the cap and persists the escalation', async () => {
    sandbox = await claudeSandbox([], { text: 'I have nothing more to add.' });
    const dir = await project({ 'docs/specs/issue-7/requirements.md': LOCKED, [TASKS]: TASKS_OPEN }, graphConfig({ cap: 2 }));

    const run = await sandbox.claude([...HEADLESS, 'Finish issue-7.'], { cwd: dir });

    expect(run.code).toBe(0);
    const requests = sandbox.server.messages();
    // The turn and the two continuations the cap allows; the third stop was let through.
    expect(requests).toHaveLength(3);
    expect(requests.slice(1).map((r) => lastMessage(r).includes(STOP_HOOK))).toEqual([true, true]);
    expect(await escalation(dir)).toMatchObject({ node: 'implementation', reason: 'the same 1 finding survived 2 continuations in a row (cap 2)' });
  });

  it('never blocks while the work item waits on a human, and tells the agent to hand over', async () => {
    sandbox = await claudeSandbox([], { text: 'Handing over for approval.' });
    const dir = await project({ 'docs/specs/issue-7/requirements.md': LOCKED, [TASKS]: TASKS_OPEN }, graphConfig({ humanApproval: true }));

    const run = await sandbox.claude([...HEADLESS, 'Finish issue-7.'], { cwd: dir });

    expect(run.code).toBe(0);
    const requests = sandbox.server.messages();
    expect(requests).toHaveLength(1);
    expect(shownToModel(requests[0]!)).toContain('This node waits on a human: approval of requirements.md. Do not approve or advance it yourself; finish what you were asked and hand over.');
    expect(await escalation(dir)).toBeUndefined();
  });
});
