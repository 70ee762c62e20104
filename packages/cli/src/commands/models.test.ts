import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recorded, runWithStandins, STANDIN_PATH, tempProject } from '../test-support/cli-harness.js';

const CONFIG = '.the-loop/harness-config.yaml';
const VERDICTS = '.the-loop/local/model-verdicts.json';

interface Verdict {
  harness: string;
  model: string;
  verdict: string;
  reason: string;
  message: string;
  argvDigest: string;
  cached: boolean;
}

async function project(): Promise<string> {
  return tempProject({
    [CONFIG]: [
      'reviews:',
      '  critics:',
      '    - name: a',
      '      harness: claude',
      '      model: opus',
      '    - name: b',
      '      harness: cursor',
      '      model: gpt-5',
      '    - name: c',
      '      harness: claude',
      '      model: opus',
      '      timeoutSeconds: 60',
      '    - name: d',
      '      command: some-tool',
      '      args: ["{prompt}"]',
      '',
    ].join('\n'),
  });
}

async function check(root: string, env: Record<string, string>, ...args: string[]): Promise<{ code: number | null; models: Verdict[]; stderr: string }> {
  const result = await runWithStandins(['models', 'check', '--format', 'json', ...args], { cwd: root, env });
  return { code: result.code, models: (JSON.parse(result.stdout) as { models: Verdict[] }).models, stderr: result.stderr };
}

describe('models check', () => {
  it('probes each declared harness/model pair once through the adapter one-shot argv and caches the verdicts', async () => {
    const root = await project();
    const record = join(root, 'record.jsonl');
    const { code, models } = await check(root, { PATH: STANDIN_PATH, STANDIN_RECORD: record });
    expect(code).toBe(0);
    expect(models.map((m) => [m.harness, m.model, m.verdict, m.reason, m.cached])).toEqual([
      ['claude', 'opus', 'ok', 'answered', false],
      ['cursor', 'gpt-5', 'ok', 'answered', false],
    ]);
    const calls = await recorded(record);
    expect(calls.map((call) => call.argv)).toEqual([
      ['--print', '--output-format', 'json', '--model', 'opus'],
      ['--print', '--output-format', 'json', '--trust', '--model', 'gpt-5', '--', 'Reply with the single word: ok'],
    ]);
    expect(calls[0]?.stdin).toBe('Reply with the single word: ok');
    const file = JSON.parse(await readFile(join(root, VERDICTS), 'utf8')) as { schemaVersion: number; verdicts: Record<string, Verdict> };
    expect(file.schemaVersion).toBe(1);
    expect(Object.keys(file.verdicts)).toEqual(['claude/opus', 'cursor/gpt-5']);
    // Machine-local: the directory keeps itself out of git.
    expect(await readFile(join(root, '.the-loop/local/.gitignore'), 'utf8')).toBe('*\n');
  });

  it('reuses a cached verdict taken against the same argv, and --refresh probes again', async () => {
    const root = await project();
    const record = join(root, 'record.jsonl');
    await check(root, { PATH: STANDIN_PATH, STANDIN_RECORD: record });
    const cachedRun = await check(root, { PATH: STANDIN_PATH, STANDIN_RECORD: record, STANDIN_REFUSE_MODEL: 'opus' });
    expect(cachedRun.models.map((m) => [m.verdict, m.cached])).toEqual([
      ['ok', true],
      ['ok', true],
    ]);
    expect(await recorded(record)).toHaveLength(2);
    const refreshed = await check(root, { PATH: STANDIN_PATH, STANDIN_RECORD: record, STANDIN_REFUSE_MODEL: 'opus' }, '--refresh');
    expect(refreshed.code).toBe(1);
    expect(refreshed.models[0]).toMatchObject({ model: 'opus', verdict: 'refused', reason: 'model-refused', cached: false });
    expect(refreshed.models[0]?.message).toContain('model opus is not available');
  });

  it('drops a cached verdict whose argv digest no longer matches (a changed flag spelling invalidates it)', async () => {
    const root = await project();
    await check(root, { PATH: STANDIN_PATH });
    const path = join(root, VERDICTS);
    const file = JSON.parse(await readFile(path, 'utf8')) as { verdicts: Record<string, Verdict> };
    // A verdict from the days the argv was different: refused, under another digest.
    file.verdicts['cursor/gpt-5'] = { ...(file.verdicts['cursor/gpt-5'] as Verdict), verdict: 'refused', argvDigest: 'f'.repeat(64) };
    await writeFile(path, JSON.stringify(file));
    const { models } = await check(root, { PATH: STANDIN_PATH });
    expect(models[1]).toMatchObject({ harness: 'cursor', verdict: 'ok', cached: false });
  });

  it('reports a harness that rejects one of our flags as flag-rejected naming the flag, never as a refusal', async () => {
    const root = await project();
    // An older cursor-agent that does not know --trust, on PATH ahead of the stand-ins.
    const old = join(root, 'old-bin');
    await mkdir(old);
    await writeFile(join(old, 'cursor-agent'), "#!/bin/sh\necho \"error: unknown option '--trust'\" >&2\nexit 1\n");
    await chmod(join(old, 'cursor-agent'), 0o755);
    const { code, models } = await check(root, { PATH: [old, STANDIN_PATH].join(delimiter) });
    expect(code).toBe(1);
    expect(models[1]).toMatchObject({ harness: 'cursor', verdict: 'unknown', reason: 'flag-rejected' });
    expect(models[1]?.message).toContain('--trust');
    const file = JSON.parse(await readFile(join(root, VERDICTS), 'utf8')) as { verdicts: Record<string, Verdict> };
    expect(file.verdicts['cursor/gpt-5']).toBeUndefined();
  });

  it('reports an absent harness binary as unknown, not refused', async () => {
    const root = await project();
    const { code, models } = await check(root, { PATH: join(root, 'nowhere') });
    expect(code).toBe(1);
    expect(models.map((m) => [m.verdict, m.reason])).toEqual([
      ['unknown', 'binary-missing'],
      ['unknown', 'binary-missing'],
    ]);
  });

  it('has nothing to probe when no critic names a built-in harness (exit 0)', async () => {
    const root = await tempProject();
    const { code, models } = await check(root, { PATH: STANDIN_PATH });
    expect(code).toBe(0);
    expect(models).toEqual([]);
  });
});
