import { access, constants, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, git, makeRepo, runBuiltCli, writeFiles } from '../test-support/cli.js';

const USER_CLAUDE = `{
  "model": "opus",
  "permissions": { "allow": ["Bash(npm test)"] },
  "hooks": {
    "Stop": [{ "hooks": [{ "type": "command", "command": "./scripts/notify.sh", "timeout": 5 }] }],
    "PreToolUse": [{ "matcher": "Bash", "hooks": [{ "type": "command", "command": "./scripts/guard.sh" }] }]
  }
}
`;

const USER_CURSOR = `{
  "version": 1,
  "hooks": {
    "beforeShellExecution": [{ "command": "./hooks/audit.sh" }],
    "stop": [{ "command": "./hooks/log-stop.sh" }]
  }
}
`;

const read = (dir: string, path: string) => readFile(join(dir, path), 'utf8');

describe('hooks install', () => {
  it('merges into existing settings, keeps every user hook, and a second run is byte-identical', async () => {
    // The project has its own install, so the hooks start it.
    const dir = await makeRepo({ '.claude/settings.json': USER_CLAUDE, '.cursor/hooks.json': USER_CURSOR, 'node_modules/.bin/the-loop': '#!/bin/sh\n' });
    await git(dir, ['init', '-q']);
    const first = await runBuiltCli(['hooks', 'install'], { cwd: dir });
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/claude +\.claude\/settings\.json +updated/);
    const claude = await read(dir, '.claude/settings.json');
    const cursor = await read(dir, '.cursor/hooks.json');
    const settings = JSON.parse(claude);
    expect(settings.model).toBe('opus');
    expect(settings.permissions).toEqual({ allow: ['Bash(npm test)'] });
    expect(settings.hooks.PreToolUse).toEqual([{ matcher: 'Bash', hooks: [{ type: 'command', command: './scripts/guard.sh' }] }]);
    expect(settings.hooks.Stop[0]).toEqual({ hooks: [{ type: 'command', command: './scripts/notify.sh', timeout: 5 }] });
    expect(settings.hooks.Stop[1].hooks[0].command).toBe('"$CLAUDE_PROJECT_DIR"/node_modules/.bin/the-loop hook Stop --harness claude --repo "$CLAUDE_PROJECT_DIR"');
    expect(settings.hooks.PostToolUse[0].matcher).toBe('Write|Edit|MultiEdit');
    expect(Object.keys(settings.hooks)).toEqual(['Stop', 'PreToolUse', 'SessionStart', 'UserPromptSubmit', 'PostToolUse']);
    expect(claude.endsWith('}\n')).toBe(true);
    expect(claude).toContain('\n  "model": "opus",\n');

    const hooks = JSON.parse(cursor);
    expect(hooks.hooks.beforeShellExecution).toEqual([{ command: './hooks/audit.sh' }]);
    expect(hooks.hooks.stop).toEqual([{ command: './hooks/log-stop.sh' }, { command: 'node_modules/.bin/the-loop hook stop --harness cursor --repo .', loop_limit: 5 }]);

    const second = await runBuiltCli(['hooks', 'install'], { cwd: dir });
    expect(second.stdout).toMatch(/claude +\.claude\/settings\.json +unchanged/);
    expect(await read(dir, '.claude/settings.json')).toBe(claude);
    expect(await read(dir, '.cursor/hooks.json')).toBe(cursor);
    expect(await read(dir, '.git/hooks/pre-push')).toContain('hook pre-push');
  });

  it('with no install in the project, the hooks start the install that ran hooks install, and doctor proves they enforce', async () => {
    const dir = await makeRepo({});
    await git(dir, ['init', '-q']);
    const out = await runBuiltCli(['hooks', 'install', '--claude', '--git'], { cwd: dir });
    expect(out.code).toBe(0);
    expect(out.stderr).toContain(`so the hooks start this install: ${BIN}`);
    const settings = JSON.parse(await read(dir, '.claude/settings.json'));
    expect(settings.hooks.Stop[0].hooks[0].command).toBe(`${BIN} hook Stop --harness claude --repo "$CLAUDE_PROJECT_DIR"`);
    expect(await read(dir, '.git/hooks/pre-push')).toContain(`exec ${BIN} hook pre-push`);
    const doctor = await runBuiltCli(['doctor', '--format', 'json'], { cwd: dir });
    expect(JSON.parse(doctor.stdout)).toMatchObject({ ok: true });
    // Once the project has its own install, running it again switches every hook to it.
    await writeFiles(dir, { 'node_modules/.bin/the-loop': '#!/bin/sh\n' });
    expect((await runBuiltCli(['hooks', 'install', '--claude', '--git'], { cwd: dir })).stdout).toMatch(/claude +\.claude\/settings\.json +updated/);
    expect(JSON.parse(await read(dir, '.claude/settings.json')).hooks.Stop[0].hooks[0].command).toBe('"$CLAUDE_PROJECT_DIR"/node_modules/.bin/the-loop hook Stop --harness claude --repo "$CLAUDE_PROJECT_DIR"');
    expect(await read(dir, '.git/hooks/pre-push')).toContain('exec node_modules/.bin/the-loop hook pre-push');
  }, 120_000);

  it('--uninstall removes only its own entries', async () => {
    const dir = await makeRepo({ '.claude/settings.json': USER_CLAUDE, '.cursor/hooks.json': USER_CURSOR });
    await runBuiltCli(['hooks', 'install', '--claude', '--cursor'], { cwd: dir });
    const out = await runBuiltCli(['hooks', 'install', '--claude', '--cursor', '--uninstall'], { cwd: dir });
    expect(out.code).toBe(0);
    expect(JSON.parse(await read(dir, '.claude/settings.json'))).toEqual(JSON.parse(USER_CLAUDE));
    expect(JSON.parse(await read(dir, '.cursor/hooks.json'))).toEqual(JSON.parse(USER_CURSOR));
  });

  it('refuses a settings file that is not valid JSON, naming it, and writes nothing anywhere', async () => {
    const dir = await makeRepo({ '.claude/settings.json': '{ "hooks": { ', '.cursor/hooks.json': USER_CURSOR });
    const out = await runBuiltCli(['hooks', 'install', '--claude', '--cursor'], { cwd: dir });
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('.claude/settings.json is not valid JSON');
    expect(await read(dir, '.claude/settings.json')).toBe('{ "hooks": { ');
    expect(await read(dir, '.cursor/hooks.json')).toBe(USER_CURSOR);
  });

  it('reads a settings file saved with a byte-order mark', async () => {
    const dir = await makeRepo({ '.claude/settings.json': `\uFEFF${USER_CLAUDE}` });
    expect((await runBuiltCli(['hooks', 'install', '--claude'], { cwd: dir })).code).toBe(0);
    expect(JSON.parse(await read(dir, '.claude/settings.json')).model).toBe('opus');
  });

  it('refuses a hooks entry of the wrong shape rather than guessing', async () => {
    const dir = await makeRepo({ '.claude/settings.json': '{"hooks": {"Stop": "notify"}}\n' });
    const out = await runBuiltCli(['hooks', 'install', '--claude'], { cwd: dir });
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('"hooks.Stop" is not an array');
  });

  it('keeps a user pre-push hook, chains it, honours core.hooksPath, and restores it on uninstall', async () => {
    const dir = await makeRepo({ '.githooks/pre-push': '#!/bin/sh\necho "user hook ran with $1" >&2\nexit 0\n' });
    await git(dir, ['init', '-q']);
    await git(dir, ['config', 'core.hooksPath', '.githooks']);
    const out = await runBuiltCli(['hooks', 'install', '--git'], { cwd: dir });
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('.githooks/pre-push');
    const script = await read(dir, '.githooks/pre-push');
    expect(script).toContain('# the-loop pre-push gate');
    expect(await read(dir, '.githooks/pre-push.pre-the-loop')).toContain('user hook ran');
    await access(join(dir, '.githooks/pre-push'), constants.X_OK);
    expect((await stat(join(dir, '.githooks/pre-push'))).mode & 0o777).toBe(0o755);

    expect((await runBuiltCli(['hooks', 'install', '--git'], { cwd: dir })).stdout).toContain('unchanged');
    expect(await read(dir, '.githooks/pre-push')).toBe(script);

    await runBuiltCli(['hooks', 'install', '--git', '--uninstall'], { cwd: dir });
    expect(await read(dir, '.githooks/pre-push')).toContain('user hook ran');
    await expect(access(join(dir, '.githooks/pre-push.pre-the-loop'))).rejects.toThrow();
  });

  it('--git outside a git repository is a usage error', async () => {
    const dir = await makeRepo({});
    const out = await runBuiltCli(['hooks', 'install', '--git'], { cwd: dir });
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('not a git repository');
  });

  it('--command sets the launcher in every file and rejects shell operators', async () => {
    const dir = await makeRepo({});
    await runBuiltCli(['hooks', 'install', '--claude', '--command', 'npx the-loop'], { cwd: dir });
    expect(JSON.parse(await read(dir, '.claude/settings.json')).hooks.Stop[0].hooks[0].command).toBe('npx the-loop hook Stop --harness claude --repo "$CLAUDE_PROJECT_DIR"');
    const bad = await runBuiltCli(['hooks', 'install', '--claude', '--command', 'the-loop; rm -rf /'], { cwd: dir });
    expect(bad.code).toBe(2);
    // Command substitution runs in the shell that starts the hook, like any other operator.
    const substituted = await runBuiltCli(['hooks', 'install', '--claude', '--command', 'npx $(printf the-loop)'], { cwd: dir });
    expect(substituted.code).toBe(2);
    expect(substituted.stderr).toContain('no shell operators');
    // What a shell reads differently from doctor: `#` would comment out the event (the hook exits 2, "block").
    for (const launcher of ['the-loop #', 'the-loop \\x', 'the-lo*p', '~/bin/the-loop', '$HOME/the-loop', '"$CLAUDE_PROJECT_DIR"/the-loop']) {
      const refused = await runBuiltCli(['hooks', 'install', '--claude', '--command', launcher], { cwd: dir });
      expect(refused.code, launcher).toBe(2);
    }
    expect(JSON.parse(await read(dir, '.claude/settings.json')).hooks.Stop[0].hooks[0].command).toBe('npx the-loop hook Stop --harness claude --repo "$CLAUDE_PROJECT_DIR"');
    // Quotes read the same to both.
    expect((await runBuiltCli(['hooks', 'install', '--claude', '--command', "node 'tools/the loop.mjs'"], { cwd: dir })).code).toBe(0);
  });
});
