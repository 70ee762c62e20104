import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { approvedContent, approvedLogContent } from './approved-content.js';
import { appendTableRow, appendToSection, appendTransitionRow, LEARNINGS, RUN_USAGE, setFrontMatterValue } from './edit-log.js';

// An execution log as a model, so a test can change one thing in it and render it again.
interface Section {
  readonly depth: 2 | 3;
  readonly title: string;
  readonly lines: readonly string[];
}
interface Log {
  /** Front-matter keys other than `phase`, with their value and an optional comment. */
  readonly keys: ReadonlyArray<readonly [string, string, string]>;
  readonly phase: string | undefined;
  readonly hasFrontMatter: boolean;
  readonly sections: readonly Section[];
  /** Line endings: LF, CRLF, or both in turn (the-loop's edits turn a mixed file into CRLF). */
  readonly eol: 'lf' | 'crlf' | 'mixed';
  /** Blank lines at the end of the file (the-loop trims them when it appends a section). */
  readonly trailing: number;
}

// The sections only the-loop writes, or that are written after the approval: the approval leaves these out, and nothing else.
const LEFT_OUT = ['Phase transitions', 'Run usage', 'Learnings'];
const WORDS = ['alpha', 'bravo', 'cedar', 'delta', 'ember', 'fjord', 'grove', 'harbor'];
const COVERED_TITLES = ['Verification', 'Reviewer briefing', 'Capability docs', 'Review cycles', 'Notes'];
const PHASES = ['not-started', 'implementation', 'needs-review', 'complete'];
const KEYS = ['title', 'owner', 'issue', 'updated'];

const word = fc.constantFrom(...WORDS);
const line = fc.array(word, { minLength: 1, maxLength: 4 }).map((words) => `- ${words.join(' ')}`);
const section = fc.record({
  depth: fc.constantFrom(2 as const, 3 as const),
  title: fc.constantFrom(...COVERED_TITLES, ...LEFT_OUT),
  lines: fc.array(line, { maxLength: 4 }),
});
const log: fc.Arbitrary<Log> = fc.record({
  keys: fc.uniqueArray(fc.tuple(fc.constantFrom(...KEYS), word, fc.constantFrom('', ' # set by hand')), { selector: ([key]) => key, maxLength: 3 }),
  phase: fc.option(fc.constantFrom(...PHASES), { nil: undefined }),
  hasFrontMatter: fc.boolean(),
  sections: fc.array(section, { minLength: 1, maxLength: 7 }),
  eol: fc.constantFrom('lf' as const, 'crlf' as const, 'mixed' as const),
  trailing: fc.nat({ max: 2 }),
});

function render(model: Log): string {
  const keys = [...model.keys.map(([key, value, comment]) => `${key}:   ${value}${comment}`), ...(model.phase ? [`phase: ${model.phase}`] : [])];
  const front = model.hasFrontMatter || keys.length > 0 ? ['---', ...keys, '---'] : [];
  const body = model.sections.flatMap((s) => ['', `${'#'.repeat(s.depth)} ${s.title}`, ...(s.lines.length > 0 ? ['', ...s.lines] : [])]);
  const lines = [...front, '# Execution log', ...body, ...Array<string>(model.trailing).fill(''), ''];
  const eol = (i: number) => (model.eol === 'crlf' || (model.eol === 'mixed' && i % 2 === 1) ? '\r\n' : '\n');
  return lines.map((text, i) => (i === lines.length - 1 ? text : `${text}${eol(i)}`)).join('');
}

/** Whether a section of the model sits in a region an approval leaves out: under the first section of a left-out title, before the next heading at its level or above. */
function leftOut(model: Log, index: number): boolean {
  const s = model.sections;
  const first = (j: number) => LEFT_OUT.includes(s[j]!.title) && s.findIndex((t) => t.title === s[j]!.title) === j;
  for (let j = index; j >= 0; j -= 1) {
    if (first(j) && s.slice(j + 1, index + 1).every((k) => k.depth > s[j]!.depth)) return true;
  }
  return false;
}

// What the-loop writes into a log as the work item moves, whatever the log holds already.
type Edit = (text: string) => string;
const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.constantFrom(...PHASES).map((phase): Edit => (text) => {
    const set = setFrontMatterValue(text, 'phase', phase);
    return set.ok ? set.text : text;
  }),
  fc.tuple(fc.constantFrom(...PHASES), fc.constantFrom(...PHASES)).map(([from, to]): Edit => (text) =>
    appendTransitionRow(text, { at: '2026-05-01T10:00:00.000Z', from, to, outcome: 'pass', note: '—' }),
  ),
  word.map((node): Edit => (text) => appendTableRow(text, RUN_USAGE, [['When', '2026-05-01T10:00:00.000Z'], ['Node', node], ['Harness runs', '1']])),
  word.map((lesson): Edit => (text) => appendToSection(text, LEARNINGS, [`- ${lesson}`])),
);
const edits = fc.array(edit, { maxLength: 6 });
const applied = (text: string, list: readonly Edit[]) => list.reduce((t, e) => e(t), text);

// A change an agent could make to what the approver read.
type Tamper = (model: Log) => Log | undefined;
const tamper: fc.Arbitrary<Tamper> = fc.oneof(
  // One word of a line in a section the approval covers.
  fc.tuple(fc.nat(), fc.nat(), fc.nat(), word).map(([s, l, w, replacement]): Tamper => (model) => {
    const covered = model.sections.map((_, i) => i).filter((i) => !leftOut(model, i) && model.sections[i]!.lines.length > 0);
    if (covered.length === 0) return undefined;
    const index = covered[s % covered.length]!;
    const target = model.sections[index]!;
    const words = target.lines[l % target.lines.length]!.slice(2).split(' ');
    if (words[w % words.length] === replacement) return undefined;
    words[w % words.length] = replacement;
    const lines = target.lines.map((text, i) => (i === l % target.lines.length ? `- ${words.join(' ')}` : text));
    return { ...model, sections: model.sections.map((x, i) => (i === index ? { ...x, lines } : x)) };
  }),
  // A line moved from one section to another, at least one of them covered.
  fc.tuple(fc.nat(), fc.nat(), fc.nat(), fc.nat()).map(([from, to, l, at]): Tamper => (model) => {
    const source = from % model.sections.length;
    const target = to % model.sections.length;
    const lines = model.sections[source]!.lines;
    if (source === target || lines.length === 0 || (leftOut(model, source) && leftOut(model, target))) return undefined;
    const moved = lines[l % lines.length]!;
    const sections = model.sections.map((s, i) => {
      if (i === source) return { ...s, lines: s.lines.filter((_, j) => j !== l % lines.length) };
      if (i === target) return { ...s, lines: [...s.lines.slice(0, at % (s.lines.length + 1)), moved, ...s.lines.slice(at % (s.lines.length + 1))] };
      return s;
    });
    return { ...model, sections };
  }),
  // A front-matter key other than phase: its value changed, the key added or removed, a comment written.
  fc.tuple(fc.nat(), word).map(([k, value]): Tamper => (model) => {
    if (model.keys.length === 0) return undefined;
    const index = k % model.keys.length;
    if (model.keys[index]![1] === value) return undefined;
    return { ...model, keys: model.keys.map((entry, i) => (i === index ? [entry[0], value, entry[2]] : entry)) };
  }),
  fc.tuple(fc.constantFrom(...KEYS), word).map(([key, value]): Tamper => (model) =>
    model.keys.some(([k]) => k === key) ? undefined : { ...model, keys: [...model.keys, [key, value, '']] },
  ),
  fc.nat().map((k): Tamper => (model) => (model.keys.length === 0 ? undefined : { ...model, keys: model.keys.filter((_, i) => i !== k % model.keys.length) })),
  fc.nat().map((k): Tamper => (model) => {
    const index = model.keys.length === 0 ? -1 : k % model.keys.length;
    if (index < 0 || model.keys[index]![2] !== '') return undefined;
    return { ...model, keys: model.keys.map((entry, i) => (i === index ? [entry[0], entry[1], ' # approved later'] : entry)) };
  }),
);

describe('approvedLogContent', () => {
  it("stays the same through every edit the-loop itself makes: the phase, transition rows, run usage, learnings", () => {
    fc.assert(
      fc.property(log, edits, (model, list) => {
        const text = render(model);
        expect(approvedLogContent(applied(text, list))).toBe(approvedLogContent(text));
      }),
      { numRuns: 300 },
    );
  });

  it('changes with any other change — a word, a line moved across a section boundary, a front-matter key — even with the-loop\'s edits after it', () => {
    fc.assert(
      fc.property(log, tamper, edits, (model, change, list) => {
        const changed = change(model);
        fc.pre(changed !== undefined);
        expect(approvedLogContent(applied(render(changed!), list))).not.toBe(approvedLogContent(render(model)));
      }),
      { numRuns: 500 },
    );
  });

  it('leaves out the phase value and the first section of each left-out title with its subsections, and keeps everything around them', () => {
    const text = [
      '---',
      'title: Greet   # by hand',
      'phase: needs-review',
      '---',
      '# Execution log',
      '',
      '## Phase transitions',
      '',
      '| When | From | To |',
      '|---|---|---|',
      '| t0 | design | tasks |',
      '',
      '### Notes',
      '',
      '- under Phase transitions, so left out with it',
      '',
      '## Reviewer briefing',
      '',
      'Start at src/greet.mjs.',
      '',
      '## Learnings',
      '',
      '- first',
      '',
      '## Learnings',
      '',
      '- not the first Learnings section, so covered',
      '',
    ].join('\r\n');
    expect(approvedLogContent(text)).toBe(
      [
        '---',
        'title: Greet # by hand',
        'phase: left-out-of-approvals',
        '---',
        '# Execution log',
        '',
        '## Reviewer briefing',
        '',
        'Start at src/greet.mjs.',
        '',
        '## Learnings',
        '',
        '- not the first Learnings section, so covered',
      ].join('\n'),
    );
  });

  it('covers a section of a left-out title written as a top-level heading, and a front-matter that does not parse, as they are', () => {
    expect(approvedLogContent('# Learnings\n\n- owns the document\n')).toBe('---\nphase: left-out-of-approvals\n---\n# Learnings\n\n- owns the document');
    expect(approvedLogContent('---\nphase: [unclosed\n---\n# Log\n')).toBe('---\nphase: [unclosed\n---\n# Log');
  });
});

describe('approvedContent', () => {
  it('is the execution log without its bookkeeping, and nothing for an artifact the-loop never edits', () => {
    expect(approvedContent('execution-log.md', '# Log\n\n## Run usage\n\n| Node |\n|---|\n| a |\n')).toBe('---\nphase: left-out-of-approvals\n---\n# Log');
    expect(approvedContent('design.md', '# Design\n\n## Learnings\n')).toBeUndefined();
  });
});
