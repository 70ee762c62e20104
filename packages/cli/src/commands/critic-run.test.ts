import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, lstat, mkdir, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, isAlive, recorded, runWithStandins, STANDIN_PATH, STANDINS, tempProject, withClockAfter } from '../test-support/cli-harness.js';

const CONFIG = '.the-loop/harness-config.yaml';
const RECORD_ARGS = join(STANDINS, 'record-args');

/** A project whose configuration declares the given critics (YAML list items). */
async function project(critics: string, extra: Record<string, string> = {}, reviewsExtra = ''): Promise<string> {
  return tempProject({ [CONFIG]: `reviews:\n${reviewsExtra}  critics:\n${critics}`, ...extra });
}

function env(root: string, more: Record<string, string> = {}): Record<string, string> {
  return { PATH: STANDIN_PATH, STANDIN_RECORD: join(root, 'record.jsonl'), RECORD_FILE: join(root, 'record.jsonl'), ...more };
}

const claudeCritic = (model = 'opus') => `    - name: claude-critic\n      harness: claude\n      model: ${model}\n`;
const cursorCritic = (model = 'gpt-5') => `    - name: cursor-critic\n      harness: cursor\n      model: ${model}\n`;
const commandCritic = (args: string, more = '') => `    - name: script\n      command: ${RECORD_ARGS}\n      args: ${args}\n${more}`;

function envelopeOf(stdout: string): Record<string, unknown> {
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe('Declaring a critic: an entry is runnable, not merely descriptive', () => {
  it('refuses an entry with only a name: it needs a harness with an adapter or a command', async () => {
    const root = await project('    - name: nothing\n      model: opus\n');
    const result = await runWithStandins(['critic', 'run', 'nothing', '--prompt', 'x'], { cwd: root, env: env(root) });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('needs a harness the-loop has an adapter for, or an explicit command');
  });

  it('refuses a harness the-loop has no adapter for, unless a command is declared', async () => {
    const root = await project('    - name: gem\n      harness: gemini\n' + commandCritic('["{prompt}"]', '      harness: gemini\n'));
    const refused = await runWithStandins(['critic', 'run', 'gem', '--prompt', 'x'], { cwd: root, env: env(root) });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('no built-in adapter for harness "gemini"');
    const ran = await runWithStandins(['critic', 'run', 'script', '--prompt', 'x'], { cwd: root, env: env(root) });
    expect(ran.code).toBe(0);
    expect(envelopeOf(ran.stdout)['attribution']).toBe('[gemini/default]');
  });

  it('refuses an empty prompt: a critic handed nothing would review nothing', async () => {
    const root = await project(claudeCritic(), { 'empty.md': '  \n' });
    for (const args of [['--prompt', ' '], ['--prompt-file', 'empty.md']]) {
      const result = await runWithStandins(['critic', 'run', 'claude-critic', ...args], { cwd: root, env: env(root) });
      expect(result.code).toBe(2);
    }
    expect(await recorded(join(root, 'record.jsonl'))).toEqual([]);
  });
});

describe('Declaring a critic: a built-in harness derives its invocation from the adapter one-shot argv', () => {
  it('runs claude with --print, --output-format json and --model, the prompt on stdin', async () => {
    const root = await project(claudeCritic('claude-opus-4'));
    const result = await runWithStandins(['critic', 'run', 'claude-critic', '--prompt', 'Review the diff.'], { cwd: root, env: env(root) });
    expect(result.code).toBe(0);
    const [call] = await recorded(join(root, 'record.jsonl'));
    expect(call?.argv).toEqual(['--print', '--output-format', 'json', '--model', 'claude-opus-4']);
    expect(call?.stdin).toBe('Review the diff.');
    expect(call?.cwd).toBe(root);
  });

  it('runs cursor-agent with --model (never -m), --trust and the prompt after --', async () => {
    const root = await project(cursorCritic('gpt-5'));
    const result = await runWithStandins(['critic', 'run', 'cursor-critic', '--prompt', 'Review the diff.'], { cwd: root, env: env(root) });
    expect(result.stderr).not.toContain('unknown option');
    expect(result.code).toBe(0);
    const [call] = await recorded(join(root, 'record.jsonl'));
    expect(call?.argv).toEqual(['--print', '--output-format', 'json', '--trust', '--model', 'gpt-5', '--', 'Review the diff.']);
    expect(call?.argv).not.toContain('-m');
    expect(call?.stdin).toBe('');
  });

  it('leaves the model flag out when no model is declared, and attributes the round to the default model', async () => {
    const root = await project('    - name: plain\n      harness: claude\n');
    const result = await runWithStandins(['critic', 'run', 'plain', '--prompt', 'x'], { cwd: root, env: env(root) });
    const [call] = await recorded(join(root, 'record.jsonl'));
    expect(call?.argv).toEqual(['--print', '--output-format', 'json']);
    expect(envelopeOf(result.stdout)['attribution']).toBe('[claude/default]');
  });

  for (const [name, critic] of [
    ['claude-critic', claudeCritic()],
    ['cursor-critic', cursorCritic()],
  ] as const) {
    it(`${name}: a prompt that starts with "-" reaches the harness intact`, async () => {
      const root = await project(critic);
      const prompt = '--model evil -m x\n- review this';
      const result = await runWithStandins(['critic', 'run', name, `--prompt=${prompt}`], { cwd: root, env: env(root) });
      expect(result.code).toBe(0);
      const [call] = await recorded(join(root, 'record.jsonl'));
      expect(call?.prompt).toBe(prompt);
    });

    it(`${name}: a 1 MB prompt reaches the harness intact`, async () => {
      const root = await project(critic);
      const prompt = `${'ünïcödé review line, '.repeat(50_000)}end`;
      await writeFile(join(root, 'prompt.md'), prompt);
      const result = await runWithStandins(['critic', 'run', name, '--prompt-file', 'prompt.md'], { cwd: root, env: env(root) });
      expect(result.code).toBe(0);
      expect(Buffer.byteLength(prompt)).toBeGreaterThan(1024 * 1024);
      const [call] = await recorded(join(root, 'record.jsonl'));
      expect(call?.promptFromFile ?? call?.prompt).toBe(prompt);
    });
  }
});

describe('Declaring a critic: command is argv[0], never a shell line, and takes precedence over harness', () => {
  it('runs the command with its args, not the harness', async () => {
    const root = await project(commandCritic('["--review", "{prompt}"]', '      harness: claude\n      model: opus\n'));
    const result = await runWithStandins(['critic', 'run', 'script', '--prompt', 'look here'], { cwd: root, env: env(root) });
    expect(result.code).toBe(0);
    const calls = await recorded(join(root, 'record.jsonl'));
    expect(calls).toHaveLength(1);
    expect(calls[0]?.argv).toEqual(['--review', 'look here']);
    expect(envelopeOf(result.stdout)['attribution']).toBe('[claude/opus]');
  });

  it('refuses a command holding whitespace as a phrase, not an executable, and spawns nothing', async () => {
    const root = await project('    - name: phrase\n      command: cursor-agent review\n      args: ["{prompt}"]\n');
    const result = await runWithStandins(['critic', 'run', 'phrase', '--prompt', 'x'], { cwd: root, env: env(root) });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('a phrase, not an executable');
    expect(result.stderr).toMatch(/harness-config\.yaml:4:\d+/);
  });

  it('passes shell metacharacters in a prompt file as data: nothing executes and the bytes arrive unchanged', async () => {
    const root = await project(commandCritic('["{prompt}", "{promptFile}"]') + claudeCritic() + cursorCritic());
    const marker = join(root, 'M');
    const prompt = `; touch ${marker}\n$(touch ${marker})\n\`touch ${marker}\`\n| touch ${marker} && touch ${marker}\n'"\\\n`;
    await writeFile(join(root, 'evil.md'), prompt);
    for (const name of ['script', 'claude-critic', 'cursor-critic']) {
      const result = await runWithStandins(['critic', 'run', name, '--prompt-file', 'evil.md'], { cwd: root, env: env(root) });
      expect(result.code).toBe(0);
    }
    expect(existsSync(marker)).toBe(false);
    const [script, claude, cursor] = await recorded(join(root, 'record.jsonl'));
    expect(script?.argv[0]).toBe(prompt);
    expect((script as unknown as { files: Record<string, string> }).files[join(root, 'evil.md')]).toBe(prompt);
    expect(claude?.stdin).toBe(prompt);
    expect(cursor?.argv.at(-1)).toBe(prompt);
  });
});

describe('Declaring a critic: placeholders are substituted element-wise from a closed set', () => {
  it('substitutes {prompt} {promptFile} {model} {workItem} {specDir} {cwd} inside the one element that names them', async () => {
    const root = await project(
      commandCritic('["--model={model}", "item {workItem} at {specDir}", "{cwd}", "{prompt}", "{promptFile}"]', '      model: m1\n'),
      { 'docs/specs/issue-7/design.md': '# Design\n' },
    );
    const result = await runWithStandins(['critic', 'run', 'script', '--prompt', 'a {model} b', '--work-item', 'issue-7'], { cwd: root, env: env(root) });
    expect(result.code).toBe(0);
    const [call] = await recorded(join(root, 'record.jsonl'));
    const argv = call?.argv ?? [];
    expect(argv.slice(0, 4)).toEqual(['--model=m1', `item issue-7 at ${join(root, 'docs/specs/issue-7')}`, root, 'a {model} b']);
    expect(argv[4]?.startsWith(tmpdir())).toBe(true);
  });

  it('rejects an unknown placeholder instead of passing literal braces', async () => {
    const root = await project(commandCritic('["{prompt}", "{diff}"]'));
    const result = await runWithStandins(['critic', 'run', 'script', '--prompt', 'x'], { cwd: root, env: env(root) });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('unknown placeholder {diff}');
    expect(await recorded(join(root, 'record.jsonl'))).toEqual([]);
  });

  it('refuses a command whose args carry neither {prompt} nor {promptFile}', async () => {
    const root = await project(commandCritic('["--review"]'));
    const result = await runWithStandins(['critic', 'run', 'script', '--prompt', 'x'], { cwd: root, env: env(root) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('must pass {prompt} or {promptFile}');
    expect(await recorded(join(root, 'record.jsonl'))).toEqual([]);
  });
});

describe('Declaring a critic: env is overlaid on the inherited environment', () => {
  it('keeps the inherited variables and adds the entry env', async () => {
    const root = await project(commandCritic('["{prompt}"]', '      env:\n        CRITIC_FLAVOUR: strict\n'));
    const result = await runWithStandins(['critic', 'run', 'script', '--prompt', 'x'], { cwd: root, env: env(root, { CRITIC_INHERITED: 'ambient-credential-lives-here' }) });
    expect(result.code).toBe(0);
    const [call] = (await recorded(join(root, 'record.jsonl'))) as unknown as { env: Record<string, string> }[];
    expect(call?.env).toEqual({ CRITIC_FLAVOUR: 'strict', CRITIC_INHERITED: 'ambient-credential-lives-here' });
  });
});

describe('Declaring a critic: cwd, timeoutSeconds and enabled complete the entry', () => {
  it('resolves a relative cwd against the project root, not the directory the CLI was started in', async () => {
    const root = await project(commandCritic('["{prompt}"]', '      cwd: sub/dir\n'), { 'sub/dir/.keep': '', 'elsewhere/.keep': '' });
    const result = await runWithStandins(['critic', 'run', 'script', '--prompt', 'x', '--repo', root], { cwd: join(root, 'elsewhere'), env: env(root) });
    expect(result.code).toBe(0);
    const [call] = await recorded(join(root, 'record.jsonl'));
    expect(call?.cwd).toBe(join(root, 'sub/dir'));
  });

  it('refuses to run a disabled critic (exit 2, nothing spawned)', async () => {
    const root = await project(claudeCritic() + '      enabled: false\n');
    const result = await runWithStandins(['critic', 'run', 'claude-critic', '--prompt', 'x'], { cwd: root, env: env(root) });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('disabled');
    expect(await recorded(join(root, 'record.jsonl'))).toEqual([]);
  });

  it('treats the string "false" as a configuration error, not as true', async () => {
    const root = await project(claudeCritic() + '      enabled: "false"\n');
    const result = await runWithStandins(['critic', 'run', 'claude-critic', '--prompt', 'x'], { cwd: root, env: env(root) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('enabled: must be true or false');
  });

  for (const bad of ['.inf', '.nan', '0', '-5']) {
    it(`rejects timeoutSeconds: ${bad}`, async () => {
      const root = await project(claudeCritic() + `      timeoutSeconds: ${bad}\n`);
      const result = await runWithStandins(['critic', 'run', 'claude-critic', '--prompt', 'x'], { cwd: root, env: env(root) });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('timeoutSeconds');
      expect(await recorded(join(root, 'record.jsonl'))).toEqual([]);
    });
  }
});

describe('Declaring a critic: names are unique', () => {
  it('rejects the whole configuration on a duplicate name', async () => {
    const root = await project(claudeCritic() + claudeCritic('sonnet'));
    const result = await runWithStandins(['critic', 'run', 'claude-critic', '--prompt', 'x'], { cwd: root, env: env(root) });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/harness-config\.yaml:6:\d+ +duplicate critic name "claude-critic"/);
    expect(await recorded(join(root, 'record.jsonl'))).toEqual([]);
  });
});

describe('Running a round: exactly one named critic, no run-all mode', () => {
  it('runs only the named critic', async () => {
    const root = await project(claudeCritic() + cursorCritic());
    await runWithStandins(['critic', 'run', 'cursor-critic', '--prompt', 'x'], { cwd: root, env: env(root) });
    const calls = await recorded(join(root, 'record.jsonl'));
    expect(calls.map((call) => call.harness)).toEqual(['cursor-agent']);
  });

  it('refuses a run without a name, with two names, or with an unknown name', async () => {
    const root = await project(claudeCritic() + cursorCritic());
    for (const args of [[], ['claude-critic', 'cursor-critic'], ['nobody']]) {
      const result = await runWithStandins(['critic', 'run', ...args, '--prompt', 'x'], { cwd: root, env: env(root) });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
    }
    expect(await recorded(join(root, 'record.jsonl'))).toEqual([]);
  });

  it('needs exactly one of --prompt and --prompt-file', async () => {
    const root = await project(claudeCritic(), { 'p.md': 'x' });
    for (const args of [[], ['--prompt', 'x', '--prompt-file', 'p.md']]) {
      const result = await runWithStandins(['critic', 'run', 'claude-critic', ...args], { cwd: root, env: env(root) });
      expect(result.code).toBe(2);
    }
  });
});

describe('Running a round: argv without a shell, under a timeout, in the right directory', () => {
  it('runs in --cwd over the entry cwd, and the entry cwd over the project root', async () => {
    const root = await project(commandCritic('["{prompt}"]', '      cwd: entry\n'), { 'entry/.keep': '', 'flag/.keep': '' });
    await runWithStandins(['critic', 'run', 'script', '--prompt', 'x', '--cwd', 'flag'], { cwd: root, env: env(root) });
    await runWithStandins(['critic', 'run', 'script', '--prompt', 'x'], { cwd: root, env: env(root) });
    const calls = await recorded(join(root, 'record.jsonl'));
    expect(calls.map((call) => call.cwd)).toEqual([join(root, 'flag'), join(root, 'entry')]);
  });

  it('times out a hung critic with --timeout, keeps its partial output, and fails the round (exit 1)', async () => {
    const root = await project(claudeCritic() + '      timeoutSeconds: 600\n      outputFormat: text\n');
    const ready = join(root, 'ready');
    const result = await withClockAfter(ready, 1000, () =>
      runWithStandins(['critic', 'run', 'claude-critic', '--prompt', 'x', '--timeout', '1'], { cwd: root, env: env(root, { STANDIN_MODE: 'partial-then-hang', STANDIN_READY: ready }) }),
    );
    expect(result.code).toBe(1);
    const envelope = envelopeOf(result.stdout);
    expect(envelope).toMatchObject({ ok: false, reason: 'timeout', output: 'partial review: finding 1 is' });
    expect(String(envelope['error'])).toContain('timed out after 1 s');
  });

  it('times out at the entry timeoutSeconds when no --timeout is given', async () => {
    const root = await project(claudeCritic() + '      timeoutSeconds: 0.5\n');
    const result = await runWithStandins(['critic', 'run', 'claude-critic', '--prompt', 'x'], { cwd: root, env: env(root, { STANDIN_MODE: 'hang' }) });
    expect(result.code).toBe(1);
    expect(envelopeOf(result.stdout)).toMatchObject({ ok: false, reason: 'timeout', error: expect.stringContaining('0.5 s') });
  });

  it('kills the whole process group on timeout: a grandchild that ignores SIGTERM is gone afterwards', async () => {
    const root = await project(claudeCritic());
    const pidFile = join(root, 'grandchild.pid');
    const result = await withClockAfter(pidFile, 1000, () =>
      runWithStandins(['critic', 'run', 'claude-critic', '--prompt', 'x', '--timeout', '1'], { cwd: root, env: env(root, { STANDIN_MODE: 'hang-grandchild', STANDIN_PIDFILE: pidFile }) }),
    );
    expect(result.code).toBe(1);
    const pid = Number(await readFile(pidFile, 'utf8'));
    expect(pid).toBeGreaterThan(0);
    // SIGKILL is delivered at once, but a loaded machine may take a moment to tear the process down.
    await expect.poll(() => isAlive(pid), { timeout: 10_000, interval: 50 }).toBe(false);
  });

  it('closes stdin of a command critic, so a critic that reads stdin does not hang', async () => {
    const root = await project(commandCritic('["{prompt}"]', '      timeoutSeconds: 20\n'));
    const result = await runWithStandins(['critic', 'run', 'script', '--prompt', 'x'], { cwd: root, env: env(root), stdin: 'the operator typed this' });
    expect(result.code).toBe(0);
    const [call] = await recorded(join(root, 'record.jsonl'));
    expect(call?.stdin).toBe('');
  });
});

describe('Running a round: {prompt} and {promptFile} always resolve', () => {
  it('writes an inline prompt to a scratch file for the round and removes it afterwards', async () => {
    const root = await project(commandCritic('["{promptFile}", "{prompt}"]'));
    const result = await runWithStandins(['critic', 'run', 'script', '--prompt', 'inline prompt ✓'], { cwd: root, env: env(root) });
    expect(result.code).toBe(0);
    const [call] = (await recorded(join(root, 'record.jsonl'))) as unknown as { argv: string[]; files: Record<string, string> }[];
    const scratch = call?.argv[0] as string;
    expect(call?.files[scratch]).toBe('inline prompt ✓');
    expect(call?.argv[1]).toBe('inline prompt ✓');
    expect(existsSync(scratch)).toBe(false);
  });

  it('removes the scratch file when the round fails', async () => {
    const root = await project(commandCritic('["{promptFile}"]'));
    const result = await runWithStandins(['critic', 'run', 'script', '--prompt', 'x'], { cwd: root, env: env(root, { RECORD_EXIT: '4' }) });
    expect(result.code).toBe(1);
    const [call] = await recorded(join(root, 'record.jsonl'));
    expect(existsSync(call?.argv[0] as string)).toBe(false);
  });

  it('reads a --prompt-file into {prompt}, and passes the file itself as {promptFile}', async () => {
    const root = await project(commandCritic('["{prompt}", "{promptFile}"]'), { 'review.md': 'from a file\n' });
    await runWithStandins(['critic', 'run', 'script', '--prompt-file', 'review.md'], { cwd: root, env: env(root) });
    const [call] = await recorded(join(root, 'record.jsonl'));
    expect(call?.argv).toEqual(['from a file\n', join(root, 'review.md')]);
  });
});

describe('Running a round: stdout is exactly one JSON envelope', () => {
  it('prints the envelope with every field and usage, diagnostics on stderr only', async () => {
    const root = await project(claudeCritic());
    const result = await runWithStandins(['critic', 'run', 'claude-critic', '--prompt', 'x'], { cwd: root, env: env(root) });
    expect(result.code).toBe(0);
    const envelope = envelopeOf(result.stdout);
    expect(Object.keys(envelope).sort()).toEqual(
      ['attribution', 'critic', 'durationSeconds', 'error', 'exitCode', 'harness', 'model', 'ok', 'output', 'reason', 'schemaVersion', 'sessionId', 'stderr', 'truncated', 'usage'].sort(),
    );
    expect(envelope).toMatchObject({
      schemaVersion: 1,
      critic: 'claude-critic',
      harness: 'claude',
      model: 'opus',
      attribution: '[claude/opus]',
      ok: true,
      exitCode: 0,
      error: null,
      sessionId: '8d3c0b1e-0000-4000-8000-000000000001',
      usage: { inputTokens: 1200, outputTokens: 340, cacheReadTokens: 800, cacheWriteTokens: 10, costUsd: 0.0123, present: true },
    });
    expect(String(envelope['output'])).toMatch(/^\[claude stand-in\] reviewed a prompt of sha256 [0-9a-f]{64}: no findings\.$/);
    expect(typeof envelope['durationSeconds']).toBe('number');
  });

  it('--output-file also writes the envelope to disk', async () => {
    const root = await project(claudeCritic());
    await mkdir(join(root, 'out'));
    const result = await runWithStandins(['critic', 'run', 'claude-critic', '--prompt', 'x', '--output-file', 'out/round.json'], { cwd: root, env: env(root) });
    expect(result.code).toBe(0);
    expect(await readFile(join(root, 'out/round.json'), 'utf8')).toBe(result.stdout);
    expect((await readdir(join(root, 'out'))).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('falls back to raw stdout when a json critic printed prose: it still produced a review', async () => {
    const root = await project(claudeCritic());
    const result = await runWithStandins(['critic', 'run', 'claude-critic', '--prompt', 'x'], { cwd: root, env: env(root, { STANDIN_MODE: 'prose' }) });
    expect(result.code).toBe(0);
    expect(envelopeOf(result.stdout)).toMatchObject({ ok: true, output: 'Finding 1: the error path is untested.\nFinding 2: none else.\n', usage: { present: false } });
  });

  it('extracts the text of a command critic with outputFormat json, or keeps raw stdout when no known key holds it', async () => {
    const root = await project(commandCritic('["{prompt}"]', '      outputFormat: json\n'));
    const payload = JSON.stringify({ review: 'R1: rename it' });
    const one = await runWithStandins(['critic', 'run', 'script', '--prompt', 'x'], { cwd: root, env: env(root, { RECORD_OUTPUT: payload }) });
    expect(envelopeOf(one.stdout)['output']).toBe('R1: rename it');
    const two = await runWithStandins(['critic', 'run', 'script', '--prompt', 'x'], { cwd: root, env: env(root, { RECORD_OUTPUT: '[1,2]' }) });
    expect(envelopeOf(two.stdout)['output']).toBe('[1,2]');
  });

  it('reports usage.present false when the critic reported none (cursor)', async () => {
    const root = await project(cursorCritic());
    const result = await runWithStandins(['critic', 'run', 'cursor-critic', '--prompt', 'x'], { cwd: root, env: env(root) });
    expect(envelopeOf(result.stdout)['usage']).toEqual({ inputTokens: null, outputTokens: null, cacheReadTokens: null, cacheWriteTokens: null, costUsd: null, present: false });
  });

  it('never prints invalid JSON for a NaN cost or nonsense usage', async () => {
    const root = await project(claudeCritic());
    const result = await runWithStandins(['critic', 'run', 'claude-critic', '--prompt', 'x'], { cwd: root, env: env(root, { STANDIN_MODE: 'odd-usage' }) });
    expect(envelopeOf(result.stdout)['usage']).toEqual({ inputTokens: null, outputTokens: null, cacheReadTokens: null, cacheWriteTokens: null, costUsd: null, present: false });
  });

  it('decodes undecodable output lossily instead of crashing', async () => {
    const root = await project(claudeCritic() + '      outputFormat: text\n');
    const result = await runWithStandins(['critic', 'run', 'claude-critic', '--prompt', 'x'], { cwd: root, env: env(root, { STANDIN_MODE: 'invalid-utf8' }) });
    expect(result.code).toBe(0);
    expect(envelopeOf(result.stdout)['output']).toBe('bad\uFFFD\uFFFD\n');
  });
});

describe('Running a round: exit codes 0 ran · 1 failed with an envelope · 2 misconfigured with nothing spawned', () => {
  const failing: [string, Record<string, string>, string][] = [
    ['a non-zero exit', { STANDIN_MODE: 'exit-nonzero' }, 'exit-nonzero'],
    ['is_error', { STANDIN_MODE: 'is-error' }, 'is-error'],
  ];
  for (const [what, extraEnv, reason] of failing) {
    it(`fails the round on ${what}, still printing the envelope`, async () => {
      const root = await project(claudeCritic());
      const result = await runWithStandins(['critic', 'run', 'claude-critic', '--prompt', 'x'], { cwd: root, env: env(root, extraEnv) });
      expect(result.code).toBe(1);
      const envelope = envelopeOf(result.stdout);
      expect(envelope).toMatchObject({ ok: false, reason });
      expect(envelope['error']).toEqual(expect.any(String));
    });
  }

  it('fails a round that printed no review: silence is not "zero findings"', async () => {
    const root = await project(commandCritic('["{prompt}"]'));
    const result = await runWithStandins(['critic', 'run', 'script', '--prompt', 'x'], { cwd: root, env: env(root, { RECORD_OUTPUT: '  \n' }) });
    expect(result.code).toBe(1);
    expect(envelopeOf(result.stdout)).toMatchObject({ ok: false, reason: 'no-output', exitCode: 0 });
  });

  it('fails the round (exit 1, envelope printed) when the binary is absent, with no fallback executable', async () => {
    const empty = await tempProject();
    const root = await project(cursorCritic());
    const result = await runWithStandins(['critic', 'run', 'cursor-critic', '--prompt', 'x'], { cwd: root, env: { PATH: empty } });
    expect(result.code).toBe(1);
    expect(envelopeOf(result.stdout)).toMatchObject({ ok: false, reason: 'binary-missing', exitCode: null });
  });

  it('fails the round (exit 1) when the executable exists but cannot be started', async () => {
    const root = await project('    - name: broken\n      command: ./broken.sh\n      args: ["{prompt}"]\n', { 'broken.sh': '#!/no-such-interpreter\n' });
    await chmod(join(root, 'broken.sh'), 0o755);
    const result = await runWithStandins(['critic', 'run', 'broken', '--prompt', 'x'], { cwd: root, env: env(root) });
    expect(result.code).toBe(1);
    expect(envelopeOf(result.stdout)).toMatchObject({ ok: false, reason: 'spawn-failed', error: expect.stringContaining('interpreter') });
  });

  it('exits 2 when the configuration file does not parse', async () => {
    const root = await tempProject({ [CONFIG]: 'reviews: [unclosed\n' });
    const result = await runWithStandins(['critic', 'run', 'a', '--prompt', 'x'], { cwd: root, env: env(root) });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
  });

  it('reads the fallback .the-loop/config.yaml when harness-config.yaml is absent', async () => {
    const root = await tempProject({ '.the-loop/config.yaml': `reviews:\n  critics:\n${claudeCritic()}` });
    const result = await runWithStandins(['critic', 'run', 'claude-critic', '--prompt', 'x'], { cwd: root, env: env(root) });
    expect(result.code).toBe(0);
  });
});

describe('Author ≠ critic', () => {
  const log = '---\nphase: implementation\nauthor:\n  harness: claude\n  model: opus\n---\n# Execution log\n';

  it('refuses a critic with the author\'s harness and model (exit 2, nothing spawned)', async () => {
    const root = await project(claudeCritic('opus'), { 'docs/specs/issue-1/execution-log.md': log });
    const result = await runWithStandins(['critic', 'run', 'claude-critic', '--prompt', 'x', '--work-item', 'issue-1'], { cwd: root, env: env(root) });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('the same harness and model that wrote issue-1');
    expect(await recorded(join(root, 'record.jsonl'))).toEqual([]);
  });

  it('runs a critic of another model', async () => {
    const root = await project(claudeCritic('sonnet'), { 'docs/specs/issue-1/execution-log.md': log });
    const result = await runWithStandins(['critic', 'run', 'claude-critic', '--prompt', 'x', '--work-item', 'issue-1'], { cwd: root, env: env(root) });
    expect(result.code).toBe(0);
  });

  it('only warns with reviews.sameModelCritic: warn', async () => {
    const root = await project(claudeCritic('opus'), { 'docs/specs/issue-1/execution-log.md': log }, '  sameModelCritic: warn\n');
    const result = await runWithStandins(['critic', 'run', 'claude-critic', '--prompt', 'x', '--work-item', 'issue-1'], { cwd: root, env: env(root) });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('warning');
    expect(envelopeOf(result.stdout)['ok']).toBe(true);
  });

  it('rejects a work-item id that escapes the spec root', async () => {
    const root = await project(claudeCritic());
    await mkdir(join(root, 'docs/specs'), { recursive: true });
    const result = await runWithStandins(['critic', 'run', 'claude-critic', '--prompt', 'x', '--work-item', '../x'], { cwd: root, env: env(root) });
    expect(result.code).toBe(2);
  });
});

describe('Running a round: nothing outlives the CLI', () => {
  it('kills the critic process group when the CLI itself is interrupted', async () => {
    const root = await project(claudeCritic());
    const pidFile = join(root, 'grandchild.pid');
    const cli = spawn(process.execPath, [BIN, 'critic', 'run', 'claude-critic', '--prompt', 'x'], {
      cwd: root,
      env: env(root, { STANDIN_MODE: 'hang-grandchild', STANDIN_PIDFILE: pidFile }),
      stdio: 'ignore',
    });
    const deadline = Date.now() + 10_000;
    while (!existsSync(pidFile) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const pid = Number(await readFile(pidFile, 'utf8'));
    const closed = new Promise((r) => cli.on('close', (_code, signal) => r(signal)));
    cli.kill('SIGINT');
    expect(await closed).toBe('SIGINT');
    // The CLI killed the group before it died; a loaded machine may take a moment to tear it down.
    await expect.poll(() => isAlive(pid), { timeout: 10_000, interval: 50 }).toBe(false);
  });

  it('refuses a --spec-dir outside the project', async () => {
    const root = await project(claudeCritic());
    const result = await runWithStandins(['critic', 'run', 'claude-critic', '--prompt', 'x', '--work-item', 'a', '--spec-dir', '../elsewhere'], { cwd: root, env: env(root) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--spec-dir');
  });
});

describe('critic run --output-file clobbers anything', () => {
  // A device node of our own where we may make one (root, as in containers); elsewhere /dev/null,
  // which a user without root cannot replace even if the refusal failed.
  function device(root: string): string {
    const path = join(root, 'null-device');
    return spawnSync('mknod', [path, 'c', '1', '3']).status === 0 ? path : '/dev/null';
  }

  it('refuses a device, a FIFO, a directory, a symbolic link, .git, a tracked file and a missing folder, before the round', async () => {
    const root = await project(claudeCritic(), { 'docs/specs/a/requirements.md': '# R\n', 'real.json': 'keep\n' });
    expect(spawnSync('git', ['init', '-q'], { cwd: root }).status).toBe(0);
    expect(spawnSync('git', ['add', 'docs'], { cwd: root }).status).toBe(0);
    expect(spawnSync('mkfifo', [join(root, 'pipe')]).status).toBe(0);
    await symlink(join(root, 'real.json'), join(root, 'link.json'));
    const cases: [string, RegExp][] = [
      [device(root), /a device, not a regular file/],
      ['pipe', /a FIFO, not a regular file/],
      ['docs', /a directory, not a regular file/],
      ['link.json', /a symbolic link/],
      ['.git/config', /inside a \.git folder/],
      ['.git/hooks/new-file', /inside a \.git folder/],
      ['docs/specs/a/requirements.md', /git tracks it/],
      ['missing/round.json', /does not exist \(it is not created\)/],
    ];
    for (const [target, why] of cases) {
      const before = await lstat(target.startsWith('/') ? target : join(root, target)).catch(() => undefined);
      const result = await runWithStandins(['critic', 'run', 'claude-critic', '--prompt', 'x', '--output-file', target], { cwd: root, env: env(root) });
      expect(result.code, target).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(why);
      const after = await lstat(target.startsWith('/') ? target : join(root, target)).catch(() => undefined);
      expect(after?.ino, target).toBe(before?.ino);
    }
    expect(await readFile(join(root, 'docs/specs/a/requirements.md'), 'utf8')).toBe('# R\n');
    expect(existsSync(join(root, 'missing'))).toBe(false);
    // Nothing was spawned for any of them.
    expect(await recorded(join(root, 'record.jsonl'))).toEqual([]);
    // An untracked regular file is replaced, as before.
    const ok = await runWithStandins(['critic', 'run', 'claude-critic', '--prompt', 'x', '--output-file', 'real.json'], { cwd: root, env: env(root) });
    expect(ok.code).toBe(0);
    expect(await readFile(join(root, 'real.json'), 'utf8')).toBe(ok.stdout);
  });
});

describe('prompt scratch files are left behind when the CLI gets SIGTERM, SIGINT or SIGHUP mid-round', () => {
  // A critic that starts a grandchild in a session of its own (setsid), reports its prompt file
  // and that grandchild's pid through a FIFO the test reads, then waits to be killed.
  const CRITIC = `#!/usr/bin/env node
const { spawn } = require('node:child_process');
const { writeFileSync } = require('node:fs');
const escaped = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: 'ignore' });
writeFileSync(process.env.REPORT_FIFO, JSON.stringify({ promptFile: process.argv[2], critic: process.pid, escaped: escaped.pid }));
setInterval(() => {}, 1000);
`;

  it.each(['SIGTERM', 'SIGINT', 'SIGHUP'] as const)('%s: the scratch prompt, the critic and its setsid grandchild are all gone', async (signal) => {
    const root = await project(`    - name: waits\n      command: ./critic.cjs\n      args: ["{promptFile}"]\n`, { 'critic.cjs': CRITIC });
    const fifo = join(root, 'report');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const cli = spawn(process.execPath, [BIN, 'critic', 'run', 'waits', '--prompt', 'secret diff'], { cwd: root, env: env(root, { REPORT_FIFO: fifo }), stdio: 'ignore' });
    const closed = new Promise((resolve) => cli.on('close', (_code, got) => resolve(got)));
    // Opening the FIFO waits for the critic: no sleep, the child says when it is running.
    const report = JSON.parse(await readFile(fifo, 'utf8')) as { promptFile: string; critic: number; escaped: number };
    expect(await readFile(report.promptFile, 'utf8')).toBe('secret diff');
    cli.kill(signal);
    expect(await closed).toBe(signal);
    expect(existsSync(report.promptFile)).toBe(false);
    await expect.poll(() => isAlive(report.critic) || (process.platform === 'linux' && isAlive(report.escaped)), { timeout: 3000, interval: 20 }).toBe(false);
    if (process.platform !== 'linux' && isAlive(report.escaped)) process.kill(report.escaped, 'SIGKILL');
  });
});

describe('smaller holes in a critic round', () => {
  it('output cut at the 32 MB cap says truncated: true in the envelope', async () => {
    const root = await project(`    - name: loud\n      command: ./loud.cjs\n      args: ["{promptFile}"]\n`, {
      'loud.cjs': `#!/usr/bin/env node\nprocess.stdout.write('x'.repeat(33 * 1024 * 1024));\n`,
    });
    const result = await runWithStandins(['critic', 'run', 'loud', '--prompt', 'x'], { cwd: root, env: env(root) });
    const envelope = envelopeOf(result.stdout);
    expect(envelope['truncated']).toBe(true);
    expect(String(envelope['output'])).toHaveLength(32 * 1024 * 1024);
  });

  it("a critic cwd reached through a symbolic link out of the repository is refused, nothing spawned", async () => {
    const outside = await tempProject({});
    const root = await project(commandCritic('["{prompt}"]', '      cwd: tools\n'));
    await symlink(outside, join(root, 'tools'));
    const result = await runWithStandins(['critic', 'run', 'script', '--prompt', 'x'], { cwd: root, env: env(root) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('leads out of the repository');
    expect(await recorded(join(root, 'record.jsonl'))).toEqual([]);
  });
});
