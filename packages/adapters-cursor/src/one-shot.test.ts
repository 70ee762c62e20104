import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cursorAdapter, INLINE_PROMPT_LIMIT } from './index.js';

const STANDINS = fileURLToPath(new URL('../../../test-fixtures/harness-standins/bin', import.meta.url));

/** Run the cursor-agent stand-in with the adapter's argv; return what it received and printed. */
function runStandin(prompt: string, options: { model?: string; promptFile?: string } = {}) {
  const record = join(mkdtempSync(join(tmpdir(), 'the-loop-cursor-')), 'record.jsonl');
  const oneShot = cursorAdapter.oneShot({ prompt, model: options.model, promptFile: options.promptFile, outputFormat: 'json' });
  const child = spawnSync(cursorAdapter.binary, [...oneShot.args], {
    input: oneShot.stdin ?? '',
    env: { PATH: [STANDINS, dirname(process.execPath)].join(delimiter), STANDIN_RECORD: record },
    encoding: 'utf8',
  });
  const line = readFileSync(record, 'utf8').trim();
  const received = JSON.parse(line) as { argv: string[]; prompt: string; promptFromFile: string | null };
  return { child, received, oneShot };
}

describe('cursor-agent one-shot argv', () => {
  it('passes the model with --model, which cursor-agent accepts (it has no -m)', () => {
    const { child, received } = runStandin('Review this.', { model: 'gpt-5' });
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    expect(received.argv).toEqual(['--print', '--output-format', 'json', '--trust', '--model', 'gpt-5', '--', 'Review this.']);
    expect(cursorAdapter.parseResult(child.stdout, 0)).toMatchObject({ isError: false, usage: { present: false } });
  });

  it('would have failed with -m: the stand-in rejects it the way cursor-agent does', () => {
    const child = spawnSync(cursorAdapter.binary, ['--print', '-m', 'gpt-5', 'x'], {
      env: { PATH: [STANDINS, dirname(process.execPath)].join(delimiter) },
      encoding: 'utf8',
    });
    expect(child.status).toBe(1);
    expect(child.stderr).toBe("error: unknown option '-m'\n");
  });

  it('delivers any prompt intact as the last positional, including one that starts with "-"', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ minLength: 1 }), fc.string().map((s) => `-${s}`), fc.string().map((s) => `--trust ${s}`)), (prompt) => {
        fc.pre(!prompt.includes('\u0000'));
        const { child, received } = runStandin(prompt);
        expect(child.status).toBe(0);
        expect(received.prompt).toBe(prompt);
      }),
      { numRuns: 12 },
    );
  });

  it('hands a prompt over the argv limit to the agent as a file holding the same bytes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'the-loop-cursor-'));
    const promptFile = join(dir, 'prompt.md');
    const prompt = `-${'x'.repeat(INLINE_PROMPT_LIMIT)}`;
    writeFileSync(promptFile, prompt);
    const { child, received, oneShot } = runStandin(prompt, { promptFile });
    expect(child.status).toBe(0);
    expect(oneShot.args.every((arg) => Buffer.byteLength(arg) <= INLINE_PROMPT_LIMIT)).toBe(true);
    expect(received.promptFromFile).toBe(prompt);
  });

  it('lets an orchestrated node write with --force and resume its chat, which cursor-agent accepts', () => {
    const dir = mkdtempSync(join(tmpdir(), 'the-loop-cursor-'));
    const record = join(dir, 'record.jsonl');
    const script = join(dir, 'script.json');
    writeFileSync(script, JSON.stringify([{ write: { 'notes.md': 'first' } }, { write: { 'notes.md': 'second' }, answer: { next: 'b' } }]));
    const run = (request: Partial<Parameters<typeof cursorAdapter.oneShot>[0]>) => {
      const oneShot = cursorAdapter.oneShot({ prompt: 'Work the node.', outputFormat: 'json', writes: true, ...request });
      const env = { PATH: [STANDINS, dirname(process.execPath)].join(delimiter), STANDIN_RECORD: record, STANDIN_SCRIPT: script };
      return { oneShot, child: spawnSync(cursorAdapter.binary, [...oneShot.args], { cwd: dir, env, encoding: 'utf8' }) };
    };
    const first = run({});
    expect(first.child.stderr).toBe('');
    expect(first.oneShot.args).toEqual(['--print', '--output-format', 'json', '--trust', '--force', '--', 'Work the node.']);
    const session = cursorAdapter.parseResult(first.child.stdout, first.child.status ?? 1).sessionId as string;
    expect(readFileSync(join(dir, 'notes.md'), 'utf8')).toBe('first');

    const second = run({ resume: session, answerSchema: { type: 'object', required: ['next'] } });
    expect(second.child.stderr).toBe('');
    expect(second.oneShot.args).toEqual(['--print', '--output-format', 'json', '--trust', '--force', '--resume', session, '--', 'Work the node.']);
    const result = cursorAdapter.parseResult(second.child.stdout, second.child.status ?? 1);
    expect(result).toMatchObject({ isError: false, sessionId: session, structured: { next: 'b' } });
    expect(readFileSync(join(dir, 'notes.md'), 'utf8')).toBe('second');
  });

  it('refuses a long prompt with no prompt file rather than sending an argv the kernel rejects', () => {
    expect(() => cursorAdapter.oneShot({ prompt: 'y'.repeat(INLINE_PROMPT_LIMIT + 1), outputFormat: 'json' })).toThrow(/needs a prompt file/);
  });
});
