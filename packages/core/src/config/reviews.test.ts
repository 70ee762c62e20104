import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { criticEntry } from '../test-support/critics.js';
import { parseYamlSource } from '../yaml/yaml-source.js';
import { parseReviewsConfig, type ReviewsResult } from './reviews.js';
import { PLACEHOLDERS, placeholdersIn, substitutePlaceholders } from './reviews-schema.js';

const FILE = '.the-loop/harness-config.yaml';

function parse(yaml: string): ReviewsResult {
  const parsed = parseYamlSource(FILE, yaml);
  if (!parsed.ok) throw new Error(parsed.issues[0]?.message);
  return parseReviewsConfig(parsed.source);
}

function reviews(yaml: string) {
  const result = parse(yaml);
  if (!result.ok) throw new Error(result.issues.map((i) => i.message).join('; '));
  return result.reviews;
}

describe('reviews settings', () => {
  it('defaults every setting when reviews is absent', () => {
    expect(reviews('workflow:\n  specDir: docs/specs\n')).toEqual({
      selfReviewCount: 3,
      criticReviewCount: 3,
      stopOnNoNewFindings: true,
      escalateOnRepeatFinding: true,
      sameModelCritic: 'refuse',
      critics: [],
    });
  });

  it('reads the counts and switches as declared, zero included', () => {
    expect(reviews('reviews:\n  selfReviewCount: 0\n  criticReviewCount: 5\n  stopOnNoNewFindings: false\n  escalateOnRepeatFinding: false\n  sameModelCritic: warn\n')).toMatchObject({
      selfReviewCount: 0,
      criticReviewCount: 5,
      stopOnNoNewFindings: false,
      escalateOnRepeatFinding: false,
      sameModelCritic: 'warn',
    });
  });

  it.each([
    ['selfReviewCount: -1', 2, 'selfReviewCount: must be a whole number'],
    ['criticReviewCount: 1.5', 2, 'criticReviewCount: must be a whole number'],
    ['criticReviewCount: "3"', 2, 'criticReviewCount: must be a whole number'],
    ['stopOnNoNewFindings: "false"', 2, 'stopOnNoNewFindings: must be true or false'],
    ['escalateOnRepeatFinding: yes', 2, 'escalateOnRepeatFinding: must be true or false'],
    ['sameModelCritic: allow', 2, 'sameModelCritic: must be refuse or warn'],
    ['critic: []', 2, 'reviews: unknown key "critic" (did you mean "critics"?)'],
  ])('rejects the configuration on %s, at its line', (line, expectedLine, message) => {
    const result = parse(`# settings\nreviews:\n  ${line}\n`);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues[0]).toMatchObject({ file: FILE, line: expectedLine + 1 });
    expect(result.issues[0]?.message).toContain(message);
  });
});

describe('critic entries', () => {
  it('applies the defaults: timeoutSeconds 900, enabled true, cwd the root, output format by kind', () => {
    const [critic] = reviews('reviews:\n  critics:\n    - name: a\n      harness: claude\n').critics;
    expect(critic?.entry).toEqual(criticEntry({ name: 'a', harness: 'claude' }));
    expect(critic?.entry).toMatchObject({ args: [], env: {}, timeoutSeconds: 900, enabled: true });
  });

  it('reports every broken entry with its own reason and line, and keeps the good ones runnable', () => {
    const yaml = [
      'reviews:', //                                  1
      '  critics:', //                                2
      '    - name: good', //                          3
      '      harness: claude', //                     4
      '    - name: nan', //                           5
      '      harness: claude', //                     6
      '      timeoutSeconds: .nan', //                7
      '    - name: inf', //                           8
      '      harness: claude', //                     9
      '      timeoutSeconds: .inf', //                10
      '    - name: zero', //                          11
      '      harness: claude', //                     12
      '      timeoutSeconds: 0', //                   13
      '    - name: env', //                           14
      '      command: tool', //                       15
      '      args: ["{prompt}"]', //                  16
      '      env:', //                                17
      '        LEVEL: 3', //                          18
      '    - name: abs', //                           19
      '      harness: claude', //                     20
      '      cwd: /elsewhere', //                     21
      '    - name: fmt', //                           22
      '      harness: claude', //                     23
      '      outputFormat: yaml', //                  24
      '    - just a string', //                       25
      '',
    ].join('\n');
    const critics = reviews(yaml).critics;
    expect(critics.map((c) => [c.name, c.entry !== undefined, c.problems.map((p) => `${p.line} ${p.message}`)])).toEqual([
      ['good', true, []],
      ['nan', false, ['7 reviews.critics[1].timeoutSeconds: must be a number of seconds']],
      ['inf', false, ['10 reviews.critics[2].timeoutSeconds: must be a finite number of seconds']],
      ['zero', false, ['13 reviews.critics[3].timeoutSeconds: must be greater than 0']],
      ['env', false, ['18 reviews.critics[4].env.LEVEL: must be a string (quote the value)']],
      ['abs', false, ['21 reviews.critics[5].cwd: must be relative to the project root']],
      ['fmt', false, ['24 reviews.critics[6].outputFormat: must be text or json']],
      [undefined, false, ['25 critics[7] must be a mapping with at least a name']],
    ]);
  });

  it('refuses env entries named like secrets: env SHALL NOT hold secrets, the file is committed', () => {
    const critics = reviews('reviews:\n  critics:\n    - name: a\n      command: t\n      args: ["{prompt}"]\n      env:\n        CURSOR_API_KEY: abc\n        MAX_TOKENS: "5"\n').critics;
    expect(critics[0]?.problems.map((p) => p.message)).toEqual([expect.stringMatching(/env: CURSOR_API_KEY looks like a secret/)]);
    const fine = reviews('reviews:\n  critics:\n    - name: a\n      command: t\n      args: ["{prompt}"]\n      env:\n        MAX_TOKENS: "5"\n').critics;
    expect(fine[0]?.entry?.env).toEqual({ MAX_TOKENS: '5' });
  });

  it('rejects args on a built-in harness, and a critic with neither harness nor command', () => {
    const critics = reviews('reviews:\n  critics:\n    - name: a\n      harness: claude\n      args: ["x"]\n    - name: b\n      model: opus\n').critics;
    expect(critics[0]?.problems[0]?.message).toContain('args apply to an explicit command');
    expect(critics[1]?.problems[0]?.message).toContain('needs a harness the-loop has an adapter for, or an explicit command');
  });

  it('rejects the whole configuration on duplicate names, at the second one', () => {
    const result = parse('reviews:\n  critics:\n    - name: a\n      harness: claude\n    - name: a\n      harness: cursor\n');
    expect(result).toMatchObject({ ok: false, issues: [{ line: 5, message: expect.stringContaining('duplicate critic name "a"') }] });
  });
});

describe('placeholders', () => {
  it('finds brace-wrapped identifiers only: a JSON snippet is literal text', () => {
    expect(placeholdersIn('{"a":1} {prompt} {x-y} { prompt }')).toEqual(['prompt', 'x-y']);
  });

  it('substitutes in a single pass: a value that contains a placeholder is never re-scanned', () => {
    const values = { prompt: '', promptFile: '/p', model: 'm', workItem: 'w', specDir: '/s', cwd: '/c' };
    fc.assert(
      fc.property(fc.string(), fc.constantFrom(...PLACEHOLDERS), (text, name) => {
        expect(substitutePlaceholders(`<{${name}}>`, { ...values, [name]: text })).toBe(`<${text}>`);
      }),
    );
  });
});

describe('a misspelt critic configuration names what was meant', () => {
  it('critcs, comand and {promt} each get a did-you-mean at their line', () => {
    const settings = parse('reviews:\n  critcs: []\n');
    expect(settings.ok ? [] : settings.issues.map((i) => `${i.line}:${i.column} ${i.message}`)).toEqual(['2:11 reviews: unknown key "critcs" (did you mean "critics"?)']);
    const entries = reviews('reviews:\n  critics:\n    - name: a\n      comand: review\n      args: ["{promt}"]\n');
    expect(entries.critics[0]?.problems.map((i) => `${i.line}:${i.column} ${i.message}`)).toEqual([
      expect.stringContaining('5:14 reviews.critics[0].args[0]: unknown placeholder {promt} (did you mean {prompt}?) — known: {prompt}'),
      '4:15 reviews.critics[0]: unknown key "comand" (did you mean "command"?)',
    ]);
  });

  it('a cwd that climbs out of the repository is refused', () => {
    const entries = reviews('reviews:\n  critics:\n    - name: a\n      command: review\n      args: ["{prompt}"]\n      cwd: tools/../../elsewhere\n');
    expect(entries.critics[0]?.problems.map((i) => i.message)).toEqual(['reviews.critics[0].cwd: must stay inside the repository (no "..")']);
  });
});
