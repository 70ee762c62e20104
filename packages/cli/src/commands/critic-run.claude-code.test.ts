// Critic rounds and model probes on `harness: claude`, run by the real Claude Code CLI
// against a scripted loopback model.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lastMessage, shownToModel, type MessagesRequest } from '../../../../test-fixtures/messages-api/server.js';
import { claudeProject, claudeSandbox, type ClaudeSandbox } from '../test-support/claude-code.js';
import { graphConfig, LOCKED, runBuiltCli, TASKS_OPEN } from '../test-support/cli.js';

const REVIEW = '1. tasks.md: "Test the greeting" is still open.\n2. No test covers an empty name.';
const RETIRED = 'claude-retired-1';
// the-loop kills the harness before the test's own timeout would leave it running.
const DEADLINE = ['--timeout', '20'];

let sandbox: ClaudeSandbox | undefined;
afterEach(async () => {
  expect(sandbox?.server.unexpected()).toEqual([]);
  await sandbox?.close();
  sandbox = undefined;
});

/**
 * A project mid-implementation with the-loop's Claude Code hooks installed, as a project that
 * runs critic rounds has them, and two claude critics: one on a model the server refuses.
 */
const project = () =>
  claudeProject(
    {
      '.the-loop/harness-config.yaml': [
        graphConfig(),
        'reviews:',
        '  critics:',
        '    - name: claude-reviewer',
        '      harness: claude',
        '      model: claude-sonnet-4-5',
        '    - name: claude-retired',
        '      harness: claude',
        `      model: ${RETIRED}`,
        '',
      ].join('\n'),
      'docs/specs/issue-7/requirements.md': LOCKED,
      'docs/specs/issue-7/tasks.md': TASKS_OPEN,
    },
    'issue-7',
  );

/** The model refuses RETIRED as the API does (404 not_found_error); any other model reviews. */
const refuseRetired = (request: MessagesRequest) => (request.model === RETIRED ? { error: 404 } : { text: REVIEW, usage: { inputTokens: 1234, outputTokens: 56 } });

describe('critic run with harness: claude', () => {
  it('runs the real CLI once and returns its review, session, usage and cost in the envelope', async () => {
    sandbox = await claudeSandbox([], refuseRetired);
    const dir = await project();

    // A prompt that reads like options reaches the model as text (it travels on stdin).
    const prompt = '--model claude-opus-4 -p Review issue-7.';
    const run = await runBuiltCli(['critic', 'run', 'claude-reviewer', `--prompt=${prompt}`, ...DEADLINE], { cwd: dir, env: sandbox.env, inherit: false });

    expect(run.code).toBe(0);
    const envelope = JSON.parse(run.stdout);
    const requests = sandbox.server.requests.filter((r) => r.method === 'POST');
    expect(requests).toHaveLength(1);
    expect((requests[0]!.body as MessagesRequest).model).toBe('claude-sonnet-4-5');
    expect(lastMessage(requests[0]!.body as MessagesRequest)).toContain(prompt);
    expect(envelope).toMatchObject({
      ok: true,
      reason: 'ran',
      exitCode: 0,
      output: REVIEW,
      error: null,
      sessionId: requests[0]!.headers['x-claude-code-session-id'],
      usage: { inputTokens: 1234, outputTokens: 56, cacheReadTokens: 0, cacheWriteTokens: 0, present: true },
    });
    // The server reports tokens only: a cost can only be Claude Code's own computation.
    expect(envelope.usage.costUsd).toBeGreaterThan(0);
    // The project's own hooks step aside for a reviewer: no assignment, no held stop, no escalation.
    expect(shownToModel(requests[0]!.body as MessagesRequest)).not.toContain('the-loop: work item issue-7');
    expect(await readFile(join(dir, 'docs/specs/issue-7/graph-state.json'), 'utf8').catch(() => 'absent')).toBe('absent');
  });

  it('fails the round when the API refuses the model, with what Claude Code reported', async () => {
    sandbox = await claudeSandbox([], refuseRetired);
    const dir = await project();

    const run = await runBuiltCli(['critic', 'run', 'claude-retired', '--prompt', 'Review issue-7.', ...DEADLINE], { cwd: dir, env: sandbox.env, inherit: false });

    expect(run.code).toBe(1);
    const envelope = JSON.parse(run.stdout);
    const said = `There's an issue with the selected model (${RETIRED}). It may not exist or you may not have access to it. Run --model to pick a different model.`;
    expect(envelope).toMatchObject({ ok: false, reason: 'exit-nonzero', exitCode: 1, output: said, error: `exited with code 1: ${said}` });
    expect(run.stderr).toContain(`the-loop: critic "claude-retired" round failed: exited with code 1: ${said}`);
  });
});

describe('models check with harness: claude', () => {
  it('records refused for the model the API refuses and ok for the one that answers', async () => {
    sandbox = await claudeSandbox([], refuseRetired);
    const dir = await project();

    const run = await runBuiltCli(['models', 'check', '--format', 'json', ...DEADLINE], { cwd: dir, env: sandbox.env, inherit: false });

    expect(run.code).toBe(1);
    const models = JSON.parse(run.stdout).models;
    expect(models).toMatchObject([
      { harness: 'claude', model: 'claude-sonnet-4-5', verdict: 'ok', reason: 'answered', cached: false },
      { harness: 'claude', model: RETIRED, verdict: 'refused', reason: 'model-refused', cached: false },
    ]);
    expect(models[1].message).toContain(`There's an issue with the selected model (${RETIRED}).`);
    // One request for the answer (Claude Code tries a refused model twice); no Stop continuation.
    expect(sandbox.server.messages().map((r) => r.model)).toEqual(['claude-sonnet-4-5', RETIRED, RETIRED]);
    const saved = JSON.parse(await readFile(join(dir, '.the-loop/local/model-verdicts.json'), 'utf8'));
    expect(saved.verdicts[`claude/${RETIRED}`]).toMatchObject({ verdict: 'refused', reason: 'model-refused' });
  });

  it('never records a bad key or an overloaded API as a refused model', async () => {
    const failing: Record<string, number> = { 'claude-locked-out': 401, 'claude-overloaded': 529 };
    sandbox = await claudeSandbox([], (request) => ({ error: failing[request.model] ?? 500 }));
    const critics = Object.keys(failing).map((model) => `    - name: ${model}\n      harness: claude\n      model: ${model}\n`);
    const dir = await claudeProject({ '.the-loop/harness-config.yaml': `reviews:\n  critics:\n${critics.join('')}` });

    // Claude Code's own retry count, at 0 so an overloaded API answers at once.
    const run = await runBuiltCli(['models', 'check', '--format', 'json', ...DEADLINE], { cwd: dir, env: { ...sandbox.env, CLAUDE_CODE_MAX_RETRIES: '0' }, inherit: false });

    expect(run.code).toBe(1);
    const models = JSON.parse(run.stdout).models;
    expect(models).toMatchObject([
      { model: 'claude-locked-out', verdict: 'unknown', reason: 'api-error', message: expect.stringContaining('401') },
      { model: 'claude-overloaded', verdict: 'unknown', reason: 'api-error', message: expect.stringContaining('529') },
    ]);
    expect(models[0].message).toContain('Invalid API key');
    // Unknown verdicts are not cached: the next check asks again.
    expect(await readFile(join(dir, '.the-loop/local/model-verdicts.json'), 'utf8').catch(() => 'absent')).toBe('absent');
  });
});
