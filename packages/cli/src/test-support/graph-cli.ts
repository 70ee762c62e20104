// Graph-runtime tests: the CLI with no GitHub token in reach, and JSON output parsed on demand.
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runBuiltCli } from './cli.js';

export { makeRepo, writeFiles } from './cli.js';

export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  json<T = Record<string, unknown>>(): T;
}

/** Run the CLI asynchronously (servers in the test process keep answering), with tokens blanked. */
export async function runWithoutTokens(args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<Run> {
  const result = await runBuiltCli(args, { cwd: options.cwd, env: { GITHUB_TOKEN: '', GH_TOKEN: '', ...options.env } });
  return { ...result, json: () => JSON.parse(result.stdout) };
}

export async function readJson<T = Record<string, unknown>>(path: string): Promise<T> {
  return JSON.parse(await readFile(path, 'utf8')) as T;
}

/** Put an executable script named `name` in `dir` (a stand-in for a real CLI on PATH). */
export async function writeExecutable(dir: string, name: string, source: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, name);
  await writeFile(path, `#!${process.execPath}\n${source}`);
  await chmod(path, 0o755);
  return path;
}
