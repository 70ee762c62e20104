import { posix } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { criticEntry } from '../test-support/critics.js';
import type { HarnessAdapter } from '../harness/adapter.js';
import { parseResultLike } from '../harness/result-json.js';
import { attribution, resolveInvocation, type RoundInputs } from './resolve-invocation.js';

// A harness port implementation for these tests: its argv shape is its own business.
const echoAdapter: Pick<HarnessAdapter, 'name' | 'binary' | 'oneShot' | 'parseResult'> = {
  name: 'echo',
  binary: 'echo-harness',
  oneShot: (request) => ({ args: ['--once', ...(request.model ? ['--model', request.model] : [])], stdin: request.prompt }),
  parseResult: parseResultLike,
};

const critic = criticEntry;

const inputs: RoundInputs = { projectRoot: '/project', join: posix.join, specDir: 'docs/specs', prompt: 'P', promptFile: '/scratch/prompt.md', env: { PATH: '/bin', HOME: '/home/u', UNSET: undefined } };

describe('resolveInvocation', () => {
  it('derives a built-in harness invocation from its adapter one-shot argv', () => {
    const result = resolveInvocation(critic({ harness: 'echo', model: 'm' }), inputs, [echoAdapter]);
    expect(result).toMatchObject({ ok: true, invocation: { command: 'echo-harness', args: ['--once', '--model', 'm'], stdin: 'P', cwd: '/project', timeoutMs: 900_000, outputFormat: 'json' } });
  });

  it('lets an explicit command win over the harness; a command critic defaults to text output', () => {
    const result = resolveInvocation(critic({ harness: 'echo', command: 'tool', args: ['{prompt}'] }), inputs, [echoAdapter]);
    expect(result).toMatchObject({ ok: true, invocation: { command: 'tool', args: ['P'], stdin: undefined, outputFormat: 'text', adapter: undefined } });
  });

  it('refuses a harness with no adapter and names the built-in ones', () => {
    expect(resolveInvocation(critic({ harness: 'gemini' }), inputs, [echoAdapter])).toEqual({ ok: false, reason: expect.stringContaining('(built-in: echo)') });
  });

  it('resolves cwd against the project root, and a round cwd wins; the timeout override wins too', () => {
    const entry = critic({ command: 'tool', args: ['{cwd}'], cwd: 'sub', timeoutSeconds: 5 });
    expect(resolveInvocation(entry, inputs, [])).toMatchObject({ invocation: { cwd: '/project/sub', args: ['/project/sub'], timeoutMs: 5000 } });
    expect(resolveInvocation(entry, { ...inputs, cwd: '/other', timeoutSeconds: 0.5 }, [])).toMatchObject({ invocation: { cwd: '/other', timeoutMs: 500 } });
  });

  it('overlays env on the inherited environment, dropping unset values', () => {
    const result = resolveInvocation(critic({ command: 'tool', args: ['{prompt}'], env: { HOME: '/override', EXTRA: '1' } }), inputs, []);
    expect(result).toMatchObject({ invocation: { env: { PATH: '/bin', HOME: '/override', EXTRA: '1' } } });
    expect(result.ok && 'UNSET' in result.invocation.env).toBe(false);
  });

  it('sets {specDir} to <root>/<specDir>/<workItem>, and needs a work item for it', () => {
    const entry = critic({ command: 'tool', args: ['{specDir}', '{workItem}', '{prompt}'] });
    expect(resolveInvocation(entry, { ...inputs, workItem: 'issue-3' }, [])).toMatchObject({ invocation: { args: ['/project/docs/specs/issue-3', 'issue-3', 'P'] } });
    expect(resolveInvocation(entry, inputs, [])).toEqual({ ok: false, reason: expect.stringContaining('--work-item') });
  });

  it('substitutes element-wise: one configured element is one argv element, whatever the prompt holds', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('{prompt}', 'x{prompt}y', '--flag', '{promptFile}', '{model}', 'a b', '; rm -rf x'), { minLength: 1, maxLength: 6 }), fc.string(), (args, prompt) => {
        const result = resolveInvocation(critic({ command: 'tool', args: [...args, '{prompt}'], model: 'm' }), { ...inputs, prompt }, []);
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        expect(result.invocation.command).toBe('tool');
        expect(result.invocation.args).toHaveLength(args.length + 1);
        expect(result.invocation.args[args.length]).toBe(prompt);
      }),
    );
  });
});

describe('attribution', () => {
  it('is [<harness>/<model>], with "default" for an unset model and the entry name for a bare command', () => {
    expect(attribution({ harness: 'cursor', model: 'gpt-5' })).toBe('[cursor/gpt-5]');
    expect(attribution({ harness: 'claude' })).toBe('[claude/default]');
    expect(attribution({ name: 'lint-bot' })).toBe('[lint-bot/default]');
  });
});
