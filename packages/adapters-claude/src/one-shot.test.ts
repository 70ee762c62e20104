import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { claudeAdapter } from './index.js';

const STANDINS = fileURLToPath(new URL('../../../test-fixtures/harness-standins/bin', import.meta.url));

/** Run the claude stand-in with the adapter's argv and stdin; return what it received and printed. */
function runStandin(prompt: string, model?: string) {
  const record = join(mkdtempSync(join(tmpdir(), 'the-loop-claude-')), 'record.jsonl');
  const oneShot = claudeAdapter.oneShot({ prompt, model, outputFormat: 'json' });
  const child = spawnSync(claudeAdapter.binary, [...oneShot.args], {
    input: oneShot.stdin ?? '',
    env: { PATH: [STANDINS, dirname(process.execPath)].join(delimiter), STANDIN_RECORD: record },
    encoding: 'utf8',
  });
  const received = JSON.parse(readFileSync(record, 'utf8').trim()) as { argv: string[]; stdin: string; prompt: string };
  return { child, received };
}

describe('claude one-shot argv', () => {
  it('is accepted by a claude that rejects unknown options, and its result parses', () => {
    const { child, received } = runStandin('Review this.', 'claude-sonnet-4');
    expect(child.status).toBe(0);
    expect(child.stderr).toBe('');
    expect(received.argv).toEqual(['--print', '--output-format', 'json', '--model', 'claude-sonnet-4']);
    const result = claudeAdapter.parseResult(child.stdout, child.status ?? 1);
    expect(result).toMatchObject({ isError: false, sessionId: expect.any(String), usage: { present: true, costUsd: 0.0123 } });
  });

  it('delivers any prompt intact on stdin, including one that starts with "-"', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ minLength: 1 }), fc.string().map((s) => `-${s}`), fc.string().map((s) => `--model ${s}`)), (prompt) => {
        fc.pre(prompt.trim() !== '' && !prompt.includes('\u0000'));
        const { child, received } = runStandin(prompt);
        expect(child.status).toBe(0);
        expect(received.prompt).toBe(prompt);
        expect(received.argv).not.toContain(prompt);
      }),
      { numRuns: 12 },
    );
  });

  it('lets an orchestrated node edit files, resume its session and answer to a JSON Schema, which claude accepts', () => {
    const dir = mkdtempSync(join(tmpdir(), 'the-loop-claude-'));
    const record = join(dir, 'record.jsonl');
    const script = join(dir, 'script.json');
    writeFileSync(script, JSON.stringify([{ write: { 'notes.md': 'first' } }, { answer: { next: 'b', reason: 'the tasks are done' } }]));
    const run = (request: Partial<Parameters<typeof claudeAdapter.oneShot>[0]>) => {
      const oneShot = claudeAdapter.oneShot({ prompt: 'Work the node.', outputFormat: 'json', ...request });
      const env = { PATH: [STANDINS, dirname(process.execPath)].join(delimiter), STANDIN_RECORD: record, STANDIN_SCRIPT: script };
      return { oneShot, child: spawnSync(claudeAdapter.binary, [...oneShot.args], { cwd: dir, input: oneShot.stdin ?? '', env, encoding: 'utf8' }) };
    };
    const first = run({ writes: true });
    expect(first.child.stderr).toBe('');
    expect(first.oneShot.args).toEqual(['--print', '--output-format', 'json', '--permission-mode', 'acceptEdits']);
    expect(readFileSync(join(dir, 'notes.md'), 'utf8')).toBe('first');
    const session = claudeAdapter.parseResult(first.child.stdout, first.child.status ?? 1).sessionId as string;

    const schema = { type: 'object', properties: { next: { type: 'string', enum: ['a', 'b'] } }, required: ['next'] };
    const second = run({ resume: session, answerSchema: schema });
    expect(second.child.stderr).toBe('');
    expect(second.oneShot.args).toEqual(['--print', '--output-format', 'json', '--resume', session, '--json-schema', JSON.stringify(schema)]);
    expect(claudeAdapter.parseResult(second.child.stdout, second.child.status ?? 1)).toMatchObject({ sessionId: session, structured: { next: 'b' } });
  });

  it('asks nothing of claude that it would refuse: without writes no permission mode is sent, and its edits are denied', () => {
    const dir = mkdtempSync(join(tmpdir(), 'the-loop-claude-'));
    const script = join(dir, 'script.json');
    writeFileSync(script, JSON.stringify([{ write: { 'notes.md': 'x' } }]));
    const oneShot = claudeAdapter.oneShot({ prompt: 'Review.', outputFormat: 'json' });
    const env = { PATH: [STANDINS, dirname(process.execPath)].join(delimiter), STANDIN_SCRIPT: script };
    const child = spawnSync(claudeAdapter.binary, [...oneShot.args], { cwd: dir, input: oneShot.stdin ?? '', env, encoding: 'utf8' });
    expect(child.status).toBe(0);
    expect(JSON.parse(child.stdout)).toMatchObject({ permission_denials: [{ tool_name: 'Write' }] });
  });
});
