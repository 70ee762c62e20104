// Helpers for tests that run the real Claude Code CLI (the pinned root devDependency)
// offline: its model is the loopback Messages API stand-in, its HOME a temporary folder,
// and the-loop's hooks are installed in a temporary git repository the way a user installs
// them. A test of `the-loop run` (or any command that starts `claude`) needs only
// `claudeSandbox()`, `claudeProject()` and `runBuiltCli(args, { cwd, env: sandbox.env, inherit: false })`.
import { mkdir, mkdtemp, readFile, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseResultObject } from '@the-loop/core';
import { startMessagesServer, type MessagesServer, type Reply, type ReplyRule } from '../../../../test-fixtures/messages-api/server.js';
import { BIN, git, makeRepo, runArgv, runCli, type CliResult } from './cli.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const PACKAGE = join(ROOT, 'node_modules/@anthropic-ai/claude-code');

/** The Claude Code version the root package.json pins (what the docs name). */
export async function pinnedClaudeVersion(): Promise<string> {
  const manifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
  return manifest.devDependencies['@anthropic-ai/claude-code'] as string;
}

/** The installed `claude` executable, from the package's own `bin` entry. */
export async function claudeExecutable(): Promise<string> {
  const manifest = JSON.parse(await readFile(join(PACKAGE, 'package.json'), 'utf8')) as { bin: Record<string, string> };
  return join(PACKAGE, manifest.bin['claude'] as string);
}

export interface ClaudeSandbox {
  /** The model Claude Code talks to. */
  readonly server: MessagesServer;
  /** Claude Code's HOME: its settings, transcripts and session files land here. */
  readonly home: string;
  /** The whole environment for `claude`, or for a the-loop command that starts it. */
  readonly env: Record<string, string>;
  /** Run `claude` with this environment. */
  claude(args: readonly string[], options: { cwd: string; stdin?: string }): Promise<ClaudeRun>;
  close(): Promise<void>;
}

export interface ClaudeRun extends CliResult {
  /** The result object `--output-format json` printed, when stdout holds one. */
  readonly result: Record<string, unknown> | undefined;
}

/**
 * A loopback model, a temporary HOME and a PATH holding `claude` (as the only thing beside
 * node and the system tools), with every kind of traffic but the model's switched off.
 */
export async function claudeSandbox(replies: readonly Reply[] = [], otherwise?: ReplyRule): Promise<ClaudeSandbox> {
  const server = await startMessagesServer(replies, otherwise);
  const home = await mkdtemp(join(tmpdir(), 'the-loop-claude-home-'));
  const bin = join(home, 'bin');
  await mkdir(bin);
  const executable = await claudeExecutable();
  await symlink(executable, join(bin, 'claude'));
  const env = {
    PATH: [bin, dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(delimiter),
    HOME: home,
    ANTHROPIC_BASE_URL: server.url,
    ANTHROPIC_API_KEY: 'sk-ant-loopback-test-key',
    // Claude Code's documented switches for everything but the model's traffic.
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    // Whatever still tries another host reaches the server's proxy trap and is recorded there.
    HTTPS_PROXY: server.url,
    HTTP_PROXY: server.url,
    NO_PROXY: '127.0.0.1',
  };
  return {
    server,
    home,
    env,
    async claude(args, options) {
      const run = await runArgv([executable, ...args], { cwd: options.cwd, env, inherit: false, input: options.stdin ?? '', timeoutMs: CLAUDE_DEADLINE_MS });
      return { ...run, result: parseResultObject(run.stdout) };
    },
    close: () => server.close(),
  };
}

/**
 * A temporary git repository with `files`, on `branch`, where `node_modules/.bin/the-loop`
 * is the built CLI and `the-loop hooks install --claude` has written `.claude/settings.json`
 * (its default launcher, `"$CLAUDE_PROJECT_DIR"/node_modules/.bin/the-loop`). Committed.
 */
export async function claudeProject(files: Readonly<Record<string, string>>, branch = 'main'): Promise<string> {
  const dir = await makeRepo({ '.gitignore': 'node_modules/\n', ...files });
  await mkdir(join(dir, 'node_modules/.bin'), { recursive: true });
  await symlink(BIN, join(dir, 'node_modules/.bin/the-loop'));
  await git(dir, ['init', '-q', '-b', branch]);
  // What the hooks run is the built CLI; writing them is the same command in this process.
  const installed = await runCli(['hooks', 'install', '--claude'], { cwd: dir });
  if (installed.code !== 0) throw new Error(`hooks install --claude failed: ${installed.stderr}`);
  await git(dir, ['add', '-A']);
  await git(dir, ['commit', '-q', '-m', 'Start the work item']);
  return dir;
}

/** A `claude` still running after this is killed, before the test's own timeout leaves it behind. */
export const CLAUDE_DEADLINE_MS = 20_000;

/** The headless turn the hook tests drive: print mode, the JSON result, edits allowed in the repository. */
export const HEADLESS = ['--print', '--output-format', 'json', '--permission-mode', 'acceptEdits'] as const;
