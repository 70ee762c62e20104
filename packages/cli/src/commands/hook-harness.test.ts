import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { splitCommandLine } from '../doctor/command-line.js';
import { git, graphConfig, LOCKED, makeRepo, payload, runCli, TASKS_DONE, TASKS_OPEN, writeFiles } from '../test-support/cli.js';

const CONFIG = '.the-loop/harness-config.yaml';

async function openItem(extra: Record<string, string> = {}, config = graphConfig()): Promise<string> {
  return makeRepo({ [CONFIG]: config, 'docs/specs/issue-7/requirements.md': LOCKED, 'docs/specs/issue-7/tasks.md': TASKS_OPEN, ...extra });
}

async function stop(harness: 'claude' | 'cursor', cwd: string, extra: Record<string, unknown> = {}, args: string[] = []) {
  const input = await payload(harness, 'stop', { cwd, ...extra });
  const result = await runCli(['hook', harness === 'claude' ? 'Stop' : 'stop', '--harness', harness, ...args], { cwd, input });
  return { ...result, json: result.stdout.trim() ? (JSON.parse(result.stdout) as Record<string, unknown>) : undefined };
}

describe('Claude Code Stop', () => {
  it('blocks with each unmet finding, its file and line, as the next step', async () => {
    const dir = await openItem({ '.the-loop/current': 'issue-7\n' });
    const out = await stop('claude', dir);
    expect(out.code).toBe(0);
    expect(out.json?.['decision']).toBe('block');
    const reason = out.json?.['reason'] as string;
    expect(reason).toContain('docs/specs/issue-7/tasks.md:4:');
    expect(reason).toContain('tasks-incomplete');
    expect(reason).toContain('Next step');
    expect(reason).toContain('the-loop graph complete issue-7 --node implementation');
  });

  it('allows the stop when the work item is complete', async () => {
    const dir = await openItem({ '.the-loop/current': 'issue-7', 'docs/specs/issue-7/tasks.md': TASKS_DONE });
    const out = await stop('claude', dir);
    expect(out.code).toBe(0);
    expect(out.json).toEqual({});
    expect(out.stderr).toContain('every gate passes');
  });

  it('never blocks while the current node waits on a human, even with unmet work downstream', async () => {
    const dir = await openItem({ '.the-loop/current': 'issue-7' }, graphConfig({ humanApproval: true }));
    for (let i = 0; i < 5; i += 1) {
      const out = await stop('claude', dir);
      expect(out.code).toBe(0);
      expect(out.json).toEqual({});
      expect(out.stderr).toContain('waits on a human');
    }
  });

  it('moves a recorded pointer the artifacts left behind along the passing edges, after deciding', async () => {
    const collaborators = 'collaborators:\n  - {login: alice, roles: [approver]}\n';
    const dir = await openItem({ '.the-loop/current': 'issue-7', '.the-loop/collaborators.yaml': collaborators, 'docs/specs/issue-7/tasks.md': TASKS_DONE }, graphConfig({ humanApproval: true }));
    const state = () => readFile(join(dir, 'docs/specs/issue-7/graph-state.json'), 'utf8').then((text) => JSON.parse(text) as { currentNode: string | null; nodes: Record<string, { attempts: number }> });
    expect((await runCli(['graph', 'advance', 'issue-7'], { cwd: dir })).code).toBe(0);
    expect((await state()).currentNode).toBe('approval');
    // An approval recorded without moving the pointer (by hand, or by an older the-loop): the pointer lags.
    const { createHash } = await import('node:crypto');
    const lagging = { ...(await state()), approvals: [{ artifact: 'requirements.md', digest: createHash('sha256').update(LOCKED).digest('hex'), by: 'alice', at: '2026-01-01T00:00:00.000Z' }] };
    await writeFiles(dir, { 'docs/specs/issue-7/graph-state.json': `${JSON.stringify(lagging, null, 2)}\n` });
    const checked = await runCli(['check', 'issue-7', '--format', 'json'], { cwd: dir });
    expect(checked.code).toBe(0);
    expect(JSON.parse(checked.stdout).findings).toEqual([expect.objectContaining({ ruleId: 'phase-mismatch', severity: 'warning', actual: 'approval', expected: 'done' })]);
    const out = await stop('claude', dir);
    expect(out.json).toEqual({});
    expect(out.stderr).toContain('issue-7: the recorded node moved approval → (done) along passing gates.');
    expect(await state()).toMatchObject({ currentNode: null, nodes: { approval: { attempts: 0 }, implementation: { attempts: 0 } } });
    expect(JSON.parse((await runCli(['check', 'issue-7', '--format', 'json'], { cwd: dir })).stdout).findings).toEqual([]);
  });

  it('ends a no-progress loop within the cap and persists the escalation in graph state', async () => {
    const dir = await openItem({ '.the-loop/current': 'issue-7' }, graphConfig({ cap: 2 }));
    const decisions: string[] = [];
    for (let i = 0; i < 4; i += 1) decisions.push(((await stop('claude', dir, { stop_hook_active: i > 0 })).json?.['decision'] as string) ?? 'allow');
    expect(decisions).toEqual(['block', 'block', 'allow', 'allow']);
    const state = JSON.parse(await readFile(join(dir, 'docs/specs/issue-7/graph-state.json'), 'utf8'));
    expect(state.escalated).toMatchObject({ node: 'implementation' });
    expect(state.escalated.reason).toContain('survived 2 continuations');
    expect(await readFile(join(dir, '.the-loop/local/.gitignore'), 'utf8')).toBe('*\n');

    // Escalated items wait on a person: even new findings do not hold the agent again.
    await writeFiles(dir, { 'docs/specs/issue-7/tasks.md': `${TASKS_OPEN}- [ ] Document the greeting\n` });
    const after = await stop('claude', dir);
    expect(after.json).toEqual({});
    expect(after.stderr).toContain('is escalated at "implementation"');
  });

  it('resets the no-progress count when the findings change', async () => {
    const dir = await openItem({ '.the-loop/current': 'issue-7' }, graphConfig({ cap: 2 }));
    const decisions: string[] = [];
    const next = async () => decisions.push(((await stop('claude', dir)).json?.['decision'] as string) ?? 'allow');
    await next();
    await next();
    await writeFiles(dir, { 'docs/specs/issue-7/tasks.md': `${TASKS_OPEN}- [ ] Document the greeting\n` });
    await next();
    await next();
    await next();
    expect(decisions).toEqual(['block', 'block', 'block', 'block', 'allow']);
  });

  it('keeps an exact count when stop hooks fire at the same moment (the state is locked)', async () => {
    const dir = await openItem({ '.the-loop/current': 'issue-7' }, graphConfig({ cap: 20 }));
    const runs = await Promise.all(Array.from({ length: 6 }, () => stop('claude', dir)));
    expect(runs.every((r) => r.json?.['decision'] === 'block')).toBe(true);
    const counters = JSON.parse(await readFile(join(dir, '.the-loop/local/stop-counters.json'), 'utf8'));
    expect(counters['claude:issue-7'].count).toBe(6);
  });

  it('a stop that changes no counter neither waits for the lock nor writes the counters', async () => {
    const dir = await openItem({ '.the-loop/current': 'issue-7', 'docs/specs/issue-7/tasks.md': TASKS_DONE });
    // Another live hook holds the lock: an allowed stop with no counter to clear still answers.
    const lock = `${process.pid} ${hostname()} ${new Date().toISOString()}\n`;
    await writeFiles(dir, { '.the-loop/local/.lock': lock });
    const out = await stop('claude', dir);
    expect(out.json).toEqual({});
    expect(out.stderr).toContain('every gate passes');
    await expect(readFile(join(dir, '.the-loop/local/stop-counters.json'), 'utf8')).rejects.toThrow(/ENOENT/);
    expect(await readFile(join(dir, '.the-loop/local/.lock'), 'utf8')).toBe(lock);
  });

  it('clears a counter left by earlier blocks under the lock once the item is done', async () => {
    const dir = await openItem({ '.the-loop/current': 'issue-7' });
    expect((await stop('claude', dir)).json?.['decision']).toBe('block');
    await writeFiles(dir, { 'docs/specs/issue-7/tasks.md': TASKS_DONE });
    expect((await stop('claude', dir)).json).toEqual({});
    expect(JSON.parse(await readFile(join(dir, '.the-loop/local/stop-counters.json'), 'utf8'))).toEqual({});
  });

  it('never cycles block-allow-block in one session; once a person resolves the escalation, a new session is held again', async () => {
    const dir = await openItem({ '.the-loop/current': 'issue-7' }, graphConfig({ cap: 1 }));
    expect((await stop('claude', dir)).json?.['decision']).toBe('block');
    expect((await stop('claude', dir)).json).toEqual({});
    expect((await stop('claude', dir)).json).toEqual({});
    expect((await stop('claude', dir, { session_id: 'another-session' })).json).toEqual({});
    const forced = await runCli(['graph', 'force', 'issue-7', '--to', 'implementation', '--reason', 'tasks re-planned'], { cwd: dir });
    expect(forced.code).toBe(0);
    expect((await stop('claude', dir, { session_id: 'another-session' })).json?.['decision']).toBe('block');
  });

  it('allows the stop once graph state has escalated the work item to a person', async () => {
    const config = graphConfig().replace('    edges:', '      - {id: escalated, phase: implementation, actor: human}\n    edges:');
    const dir = await openItem({ '.the-loop/current': 'issue-7' }, config);
    expect((await stop('claude', dir)).json?.['decision']).toBe('block');
    // Two advances over the same findings escalate in the graph runtime.
    for (let i = 0; i < 3; i += 1) await runCli(['graph', 'advance', 'issue-7'], { cwd: dir });
    const out = await stop('claude', dir);
    expect(out.json).toEqual({});
    expect(out.stderr).toContain('issue-7 is escalated at "implementation"');
  });

  it('allows and says why on stderr when no work item resolves', async () => {
    const dir = await makeRepo({ [CONFIG]: graphConfig(), 'docs/specs/a/tasks.md': TASKS_OPEN, 'docs/specs/b/tasks.md': TASKS_OPEN });
    const out = await stop('claude', dir);
    expect(out.code).toBe(0);
    expect(out.json).toEqual({});
    expect(out.stderr).toContain('no current work item');
    expect(out.stderr).toContain('2 work items are open');
  });

  it('holds the stop with the error when the tool cannot decide, at most noProgressCap times (never exit 2)', async () => {
    const dir = await openItem({ '.the-loop/current': 'issue-7', [CONFIG]: 'workflow: [unclosed' });
    const decisions: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const out = await stop('claude', dir);
      expect(out.code).toBe(0);
      decisions.push((out.json?.['decision'] as string) ?? 'allow');
      if (i === 0) {
        expect(out.json?.['reason']).toContain('.the-loop/harness-config.yaml:1:');
        expect(out.json?.['reason']).toContain('could not check whether the work is done');
      }
    }
    // The default cap is 3: the configuration that would raise it is the one that is broken.
    expect(decisions).toEqual(['block', 'block', 'block', 'allow', 'allow']);

    const bad = await runCli(['hook', 'Stop', '--harness', 'claude'], { cwd: dir, input: 'not json' });
    expect(bad.code).toBe(0);
    expect(JSON.parse(bad.stdout).reason).toContain('the hook payload on stdin');
    // A hook command line that names no harness or event cannot answer in any dialect.
    const unknown = await runCli(['hook', 'Stop', '--harness', 'claude', '--bogus'], { cwd: dir, input: '{}' });
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toContain('--bogus');
  });

  it('rejects a bad noProgressCap with its line, as the reason the stop is held', async () => {
    const dir = await openItem({ '.the-loop/current': 'issue-7' }, `${graphConfig()}\nhooks:\n  noProgressCap: 0\n`);
    const out = await stop('claude', dir);
    expect(out.code).toBe(0);
    expect(out.json?.['reason']).toMatch(/harness-config\.yaml:\d+:\d+ +hooks\.noProgressCap: must be a whole number/);
  });
});

describe('pathological markdown stalls the gate', () => {
  it('a Stop hook that cannot decide within hooks.stopDeadlineSeconds holds the stop and says why, and exits', async () => {
    const dir = await openItem({ '.the-loop/current': 'issue-7' }, `${graphConfig()}\nhooks:\n  stopDeadlineSeconds: 0.3\n`);
    // Whatever keeps the evaluation past the deadline (here another live holder of the state lock),
    // the harness's own timeout must never be what ends the hook: that would let the stop through.
    await writeFiles(dir, { '.the-loop/local/.lock': `${process.pid} ${hostname()} ${new Date().toISOString()}\n` });
    const out = await stop('claude', dir);
    expect(out.code).toBe(0);
    expect(out.json?.['decision']).toBe('block');
    expect(out.json?.['reason']).toContain('deciding took longer than 0.3 s (hooks.stopDeadlineSeconds)');
    expect(out.json?.['reason']).toContain('.the-loop/current');
  });
});

describe('work-item resolution', () => {
  it('follows --work-item, then .the-loop/current, then the branch, then the only open item', async () => {
    const files = {
      [CONFIG]: graphConfig(),
      'docs/specs/issue-12/requirements.md': LOCKED,
      'docs/specs/issue-12/tasks.md': TASKS_DONE,
      'docs/specs/issue-123/requirements.md': LOCKED,
      'docs/specs/issue-123/tasks.md': TASKS_OPEN,
    };
    const dir = await makeRepo(files);
    // Only issue-123 is open.
    expect((await stop('claude', dir)).json?.['reason']).toContain('issue-123');
    // The explicit flag wins.
    expect((await stop('claude', dir, {}, ['--work-item', 'issue-12'])).json).toEqual({});
    // A branch named after an item.
    await git(dir, ['init', '-q']);
    await git(dir, ['checkout', '-q', '-b', 'feat/issue-12-greeting']);
    expect((await stop('claude', dir)).json).toEqual({});
    // The pointer file beats the branch.
    await writeFiles(dir, { '.the-loop/current': 'issue-123\n' });
    expect((await stop('claude', dir)).json?.['reason']).toContain('issue-123');
  });

  it('reads the repository from $CLAUDE_PROJECT_DIR when the hook runs elsewhere', async () => {
    const dir = await openItem({ '.the-loop/current': 'issue-7' });
    const elsewhere = await makeRepo({});
    const input = await payload('claude', 'stop', { cwd: elsewhere });
    const out = await runCli(['hook', 'Stop', '--harness', 'claude'], { cwd: elsewhere, input, env: { CLAUDE_PROJECT_DIR: dir } });
    expect(JSON.parse(out.stdout).decision).toBe('block');
  });
});

describe('finding the project', () => {
  it('climbs from a session working in a subdirectory to the project root', async () => {
    const dir = await openItem({ '.the-loop/current': 'issue-7', 'src/lib/.keep': '' });
    const sub = join(dir, 'src/lib');
    const out = await runCli(['hook', 'Stop', '--harness', 'claude'], { cwd: sub, input: await payload('claude', 'stop', { cwd: sub }) });
    expect(JSON.parse(out.stdout).decision).toBe('block');
  });

  it('installed hooks pin the repository they were installed for: a payload cwd pointing elsewhere cannot move the check', async () => {
    const dir = await openItem({ '.the-loop/current': 'issue-7' });
    // Somewhere every gate passes: a session that moved there must not take the check along.
    const elsewhere = await makeRepo({ [CONFIG]: graphConfig(), '.the-loop/current': 'issue-7', 'docs/specs/issue-7/requirements.md': LOCKED, 'docs/specs/issue-7/tasks.md': TASKS_DONE });
    expect((await runCli(['hooks', 'install', '--claude', '--cursor'], { cwd: dir })).code).toBe(0);
    const claude = JSON.parse(await readFile(join(dir, '.claude/settings.json'), 'utf8')).hooks.Stop[0].hooks[0].command as string;
    const cursor = JSON.parse(await readFile(join(dir, '.cursor/hooks.json'), 'utf8')).hooks.stop[0].command as string;
    // The installed lines, split as the harness's shell would (doctor's reading of them).
    const claudeArgs = splitCommandLine(claude, { CLAUDE_PROJECT_DIR: dir });
    const cursorArgs = splitCommandLine(cursor, {});
    if (!claudeArgs.ok || !cursorArgs.ok) throw new Error('the installed commands do not split');
    expect(claudeArgs.argv.slice(1)).toEqual(['hook', 'Stop', '--harness', 'claude', '--repo', dir]);
    expect(cursorArgs.argv.slice(1)).toEqual(['hook', 'stop', '--harness', 'cursor', '--repo', '.']);
    const heldClaude = await runCli(claudeArgs.argv.slice(1), { cwd: elsewhere, input: await payload('claude', 'stop', { cwd: elsewhere }) });
    expect(JSON.parse(heldClaude.stdout).decision).toBe('block');
    // Cursor starts project hooks in the project; the payload's first workspace root is another folder.
    const heldCursor = await runCli(cursorArgs.argv.slice(1), { cwd: dir, input: await payload('cursor', 'stop', { cwd: elsewhere }) });
    expect(JSON.parse(heldCursor.stdout).followup_message).toContain('tasks-incomplete');
    // Even a hook installed before the pin climbs from where the harness started it, not from the payload's cwd.
    const unpinned = await runCli(['hook', 'Stop', '--harness', 'claude'], { cwd: dir, input: await payload('claude', 'stop', { cwd: elsewhere }) });
    expect(JSON.parse(unpinned.stdout).decision).toBe('block');
  });

  it('allows and says why in a project with no spec root', async () => {
    const dir = await makeRepo({ 'README.md': '# x\n' });
    const out = await stop('claude', dir);
    expect(out).toMatchObject({ code: 0, json: {} });
    expect(out.stderr).toContain('the spec root docs/specs does not exist');
  });
});

describe('Claude Code context and edit hooks', () => {
  it('SessionStart and UserPromptSubmit inject the node, its assignment and the claim command', async () => {
    const dir = await openItem({ '.the-loop/current': 'issue-7' });
    for (const [name, event] of [['session-start', 'SessionStart'], ['user-prompt-submit', 'UserPromptSubmit']] as const) {
      const out = await runCli(['hook', event, '--harness', 'claude'], { cwd: dir, input: await payload('claude', name, { cwd: dir }) });
      expect(out.code).toBe(0);
      const reply = JSON.parse(out.stdout);
      expect(reply.hookSpecificOutput.hookEventName).toBe(event);
      const text = reply.hookSpecificOutput.additionalContext as string;
      expect(text).toContain('node "implementation"');
      expect(text).toContain('Assignment: Write tasks.md in docs/specs/issue-7 so that its gate passes: every task ticked');
      expect(text).toContain('docs/specs/issue-7/tasks.md:4:1 tasks-incomplete');
      expect(text).toContain('the-loop graph complete issue-7 --node implementation');
    }
  });

  it('SessionStart on a node waiting on a human says to hand over, not to approve', async () => {
    const dir = await openItem({ '.the-loop/current': 'issue-7' }, graphConfig({ humanApproval: true }));
    const out = await runCli(['hook', 'SessionStart', '--harness', 'claude'], { cwd: dir, input: await payload('claude', 'session-start', { cwd: dir }) });
    expect(JSON.parse(out.stdout).hookSpecificOutput.additionalContext).toContain('waits on a human');
  });

  it('PostToolUse validates a written artifact at once and is silent outside the spec root', async () => {
    const dir = await openItem({ 'docs/specs/issue-7/execution-log.md': '---\nphase: implementation  # not-started | implementation\n---\n# Log\n' });
    const file = join(dir, 'docs/specs/issue-7/execution-log.md');
    const out = await runCli(['hook', 'PostToolUse', '--harness', 'claude'], { cwd: dir, input: await payload('claude', 'post-tool-use', { cwd: dir, file }) });
    expect(out.code).toBe(0);
    const text = JSON.parse(out.stdout).hookSpecificOutput.additionalContext as string;
    expect(text).toContain('the-loop checked docs/specs/issue-7/execution-log.md');
    expect(text).toContain('docs/specs/issue-7/execution-log.md:2:8 template-residue');

    const relative = await runCli(['hook', 'PostToolUse', '--harness', 'claude'], { cwd: dir, input: await payload('claude', 'post-tool-use', { cwd: dir, file: 'docs/specs/issue-7/tasks.md' }) });
    expect(JSON.parse(relative.stdout).hookSpecificOutput.additionalContext).toContain('tasks-incomplete');

    for (const outside of [join(dir, 'src/app.ts'), join(dir, '..', 'elsewhere.md'), join(dir, 'docs/specs/README.md')]) {
      const silent = await runCli(['hook', 'PostToolUse', '--harness', 'claude'], { cwd: dir, input: await payload('claude', 'post-tool-use', { cwd: dir, file: outside }) });
      expect(silent).toMatchObject({ code: 0, stdout: '{}\n', stderr: '' });
    }
  });
});

describe('Cursor', () => {
  it('stop returns a followup_message under the same rules, and nothing after an abort', async () => {
    const dir = await openItem({ '.the-loop/current': 'issue-7' }, graphConfig({ cap: 1 }));
    const first = await stop('cursor', dir);
    expect(first.code).toBe(0);
    expect(first.json?.['followup_message']).toContain('docs/specs/issue-7/tasks.md:4:');
    expect((await stop('cursor', dir, { loop_count: 1 })).json).toEqual({});
    const aborted = await stop('cursor', dir, { status: 'aborted', conversation_id: 'other' });
    expect(aborted.json).toEqual({});
    expect(aborted.stderr).toContain('aborted');
  });

  it('never follows up while a human gate is pending', async () => {
    const dir = await openItem({ '.the-loop/current': 'issue-7' }, graphConfig({ humanApproval: true }));
    expect((await stop('cursor', dir)).json).toEqual({});
  });

  it('sessionStart returns additional_context; afterFileEdit reports findings on stderr', async () => {
    const dir = await openItem({ '.the-loop/current': 'issue-7' });
    const start = await runCli(['hook', 'sessionStart', '--harness', 'cursor'], { cwd: dir, input: await payload('cursor', 'session-start', { cwd: dir }) });
    expect(JSON.parse(start.stdout).additional_context).toContain('the-loop graph complete issue-7 --node implementation');
    const file = join(dir, 'docs/specs/issue-7/tasks.md');
    const edit = await runCli(['hook', 'afterFileEdit', '--harness', 'cursor'], { cwd: dir, input: await payload('cursor', 'after-file-edit', { cwd: dir, file }) });
    expect(edit.code).toBe(0);
    expect(JSON.parse(edit.stdout)).toEqual({});
    expect(edit.stderr).toContain('docs/specs/issue-7/tasks.md:4:1 tasks-incomplete');
  });

  it('steps aside in a session the-loop started itself as a critic or a probe (THE_LOOP_HOOKS=off)', async () => {
    const dir = await openItem({ '.the-loop/current': 'issue-7' });
    const env = { THE_LOOP_HOOKS: 'off' };
    const stopped = await runCli(['hook', 'stop', '--harness', 'cursor'], { cwd: dir, env, input: await payload('cursor', 'stop', { cwd: dir }) });
    const started = await runCli(['hook', 'sessionStart', '--harness', 'cursor'], { cwd: dir, env, input: await payload('cursor', 'session-start', { cwd: dir }) });
    for (const out of [stopped, started]) {
      expect(out.code).toBe(0);
      expect(JSON.parse(out.stdout)).toEqual({});
      expect(out.stderr).toContain('THE_LOOP_HOOKS=off');
    }
  });

  it('rejects an event of the other dialect without blocking', async () => {
    const dir = await openItem();
    const out = await runCli(['hook', 'Stop', '--harness', 'cursor'], { cwd: dir, input: '{}' });
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('cursor hook event must be one of stop, sessionStart, afterFileEdit');
  });
});
