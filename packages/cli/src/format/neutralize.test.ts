import { mkdir } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_ADAPTERS } from '../harness/adapters.js';
import { graphConfig, LOCKED, makeRepo, payload } from '../test-support/cli.js';
import { runInProcess } from '../test-support/in-process.js';
import { holdsUnsafeBytes, neutralize, neutralizing } from './neutralize.js';

// What a terminal would act on: a title change (OSC), a screen clear, a one-character CSI, a
// backspace, a bell and a right-to-left override. (A carriage return ends a Markdown line; it is
// tried in a folder name below.)
const HOSTILE = '\u001b]0;pwned\u0007\u001b[2J\u009b31m\bfake ok\u202e';
// eslint-disable-next-line no-control-regex -- the characters a terminal acts on are what this test looks for
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('escape sequences in artifact text and folder names reach the terminal raw', () => {
  it('every control character becomes a visible escape that JSON reads back as the same character', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const safe = neutralize(text);
        expect(safe).not.toMatch(RAW);
        expect(JSON.parse(`"${neutralize(JSON.stringify(text).slice(1, -1))}"`)).toBe(text);
      }),
    );
    expect(neutralize('tab\tand\nnewline stay')).toBe('tab\tand\nnewline stay');
  });

  it('check, report, github annotations, the hook reply and stderr show no control character; JSON keeps the value', async () => {
    const dir = await makeRepo({
      '.the-loop/harness-config.yaml': graphConfig(),
      '.the-loop/current': 'issue-7\n',
      'docs/specs/issue-7/requirements.md': LOCKED,
      'docs/specs/issue-7/tasks.md': `# Tasks\n\n- [ ] ship it ${HOSTILE}\n`,
    });
    // A folder whose name is not a work-item id is named on stderr.
    await mkdir(join(dir, `docs/specs/bad\u001b[31mname`));
    await mkdir(join(dir, `docs/specs/over\rwritten`));
    const run = (argv: readonly string[], stdin?: string) => runInProcess(argv, { cwd: dir, adapters: BUILT_IN_ADAPTERS, ...(stdin !== undefined ? { stdin } : {}) });
    const outputs = [
      await run(['check', 'issue-7']),
      await run(['check', '--all', '--format', 'github']),
      await run(['report']),
      await run(['report', '--format', 'markdown']),
      await run(['hook', 'Stop', '--harness', 'claude'], await payload('claude', 'stop', { cwd: dir })),
      await run(['hook', 'SessionStart', '--harness', 'claude'], await payload('claude', 'session-start', { cwd: dir })),
      await run(['hook', 'stop', '--harness', 'cursor'], await payload('cursor', 'stop', { cwd: dir })),
    ];
    for (const out of outputs) {
      expect(out.stdout).not.toMatch(RAW);
      expect(out.stderr).not.toMatch(RAW);
    }
    expect(outputs[0]?.stdout).toContain('ship it \\u001b]0;pwned\\u0007\\u001b[2J\\u009b31m\\u0008fake ok\\u202e');
    expect(outputs[2]?.stderr).toContain('skipped docs/specs/bad\\u001b[31mname');
    expect(outputs[2]?.stderr).toContain('skipped docs/specs/over\\u000dwritten');
    // The hook's reason is text the harness shows: its value is neutralised, not only its encoding.
    expect(JSON.parse(outputs[4]?.stdout ?? '').reason).toContain('ship it \\u001b]0;pwned');

    // JSON is a document for tools: the value is exactly the task's text.
    const json = await run(['check', 'issue-7', '--format', 'json']);
    expect(json.stdout).not.toMatch(RAW);
    const task = JSON.parse(json.stdout).findings.find((f: { ruleId: string }) => f.ruleId === 'tasks-incomplete');
    expect(task.message).toContain(`ship it ${HOSTILE}`);
  });

  it('colour the-loop adds still reaches a colour terminal; an artifact cannot move the cursor there', async () => {
    const dir = await makeRepo({ '.the-loop/harness-config.yaml': graphConfig(), 'docs/specs/issue-7/requirements.md': LOCKED, 'docs/specs/issue-7/tasks.md': `# Tasks\n\n- [ ] go ${HOSTILE}\n` });
    const out = await runInProcess(['check', 'issue-7'], { cwd: dir, adapters: BUILT_IN_ADAPTERS, env: { FORCE_COLOR: '1' } });
    expect(out.stdout).toContain('\u001b[1m');
    expect(out.stdout).not.toContain('\u001b]0;');
    expect(out.stdout).not.toContain('\u001b[2J');
  });
});

describe('the neutralising stream', () => {
  it('passes every write on at once, and its target’s backpressure back: full until the target drains', async () => {
    const received: string[] = [];
    let room = 2;
    let slow = true;
    const release: (() => void)[] = [];
    const target = new Writable({
      highWaterMark: 1,
      write(chunk: Buffer, _encoding, done) {
        received.push(chunk.toString());
        // A slow reader: past the first writes, each waits until the test lets them through.
        if (!slow || room-- > 0) done();
        else release.push(done);
      },
    });
    const out = neutralizing(target, false);
    expect(out.write('a\u0007')).toBe(true);
    const results = [out.write('b'), out.write('c'), out.write('d')];
    expect(received.join('')).toBe('a\\u0007bc');
    expect(results.at(-1)).toBe(false);
    const drained = new Promise((resolve) => out.once('drain', resolve));
    slow = false;
    while (release.length > 0) (release.shift() as () => void)();
    await drained;
    expect(received.join('')).toBe('a\\u0007bcd');
    expect(out.write('e')).toBe(true);
  });

  it('tells from UTF-8 bytes alone whether their text holds a character it escapes', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(holdsUnsafeBytes(Buffer.from(text, 'utf8'))).toBe(neutralize(text) !== text);
      }),
      { numRuns: 2000 },
    );
    // Each escaped range at its edges, and the characters that share their first bytes.
    for (const char of ['\u0000', '\u0008', '\u000b', '\u001f', '\u007f', '\u0080', '\u009f', '\u061c', '\u200e', '\u200f', '\u202a', '\u202e', '\u2066', '\u2069']) {
      expect(holdsUnsafeBytes(Buffer.from(`a${char}b`))).toBe(true);
    }
    for (const char of ['\t', '\n', '\u00a0', '\u00e9', '\u061b', '\u200d', '\u2014', '\u2029', '\u2065', '\u206a', '\u20ac']) {
      expect(holdsUnsafeBytes(Buffer.from(`a${char}b`))).toBe(false);
    }
  });

  it('passes whole UTF-8 bytes with nothing to escape on as the bytes written, and escapes the rest', () => {
    const received: (string | Buffer)[] = [];
    const target = new Writable({
      decodeStrings: false,
      write(chunk: string | Buffer, _encoding, done) {
        received.push(chunk);
        done();
      },
    });
    const out = neutralizing(target, false);
    const clean = Buffer.from('{"message": "caf\u00e9 \u2014 done"}\n');
    out.write(clean);
    expect(received[0]).toBe(clean);
    out.write(Buffer.from('bell\u0007 and \u202eoverride\n'));
    expect(received[1]).toBe('bell\\u0007 and \\u202eoverride\n');
  });

  it('decodes bytes split inside a character whole, and neutralises them as text', () => {
    const received: string[] = [];
    const target = new Writable({
      write(chunk: Buffer, _encoding, done) {
        received.push(chunk.toString());
        done();
      },
    });
    const out = neutralizing(target, false);
    const bytes = Buffer.from('é\u0007ü', 'utf8');
    for (const byte of bytes) out.write(Uint8Array.of(byte));
    expect(received.join('')).toBe('é\\u0007ü');
  });
});
