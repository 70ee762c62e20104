import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getDefaultGraph } from '../graph/compile-graph.js';
import { KNOWN_ARTIFACTS } from '../work-item/known-artifacts.js';
import { evaluateWorkItem } from './evaluate-work-item.js';
import type { ArtifactSource, WorkItemInput } from './inputs.js';

const graph = getDefaultGraph();

// Markdown-ish artifact text: the constructs the gates read, in any order, with any line ending.
const fragment = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('---', 'status: approved', 'status: draft', 'phase: needs-review', 'phase: implementation', 'phase: complete', 'phase: design # a | b', '# Title', '## Security design', '## Security considerations', '## Review cycles', '## Verification results', '## Evidence', '| # | type | outcome |', '|---|---|---|', '| 1 | self | zero |', '| 2 | critic | unavailable |', '- [ ] task', '- [x] done', '* [~] partial', '- **webhook endpoint**: signed', '```', '<!-- c -->', '<placeholder>', 'key: [', 'Prose.', '') },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 10 }) },
);
const text = fc.array(fc.tuple(fragment, fc.constantFrom('\n', '\n', '\r\n', '\r', ' ')), { maxLength: 25 }).map((parts) => parts.map(([t, sep]) => t + sep).join(''));
const source: fc.Arbitrary<ArtifactSource> = fc.oneof({ weight: 6, arbitrary: text.map((t) => ({ text: t })) }, { weight: 1, arbitrary: fc.constant({ unreadable: 'it is a binary file' }) });
const name = fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...KNOWN_ARTIFACTS) }, { weight: 1, arbitrary: fc.string({ maxLength: 8 }) });
const files = fc.uniqueArray(fc.tuple(name, source), { selector: ([n]) => n, maxLength: 8 });

const input = fc.record({
  files,
  approvals: fc.array(fc.record({ artifact: name, digest: fc.constantFrom('d1', 'd2'), by: fc.constantFrom('ann', 'bob'), at: fc.constant('2026-01-01T00:00:00Z') }), { maxLength: 4 }),
  digests: fc.array(fc.tuple(name, fc.constantFrom('d1', 'd2')), { maxLength: 4 }),
  approvers: fc.subarray(['ann', 'bob']),
  selectedOptIns: fc.subarray(['design-critic-review', 'nonexistent']),
  recordedNode: fc.option(fc.constantFrom('design', 'implementation', 'nope'), { nil: undefined }),
});

type Generated = typeof input extends fc.Arbitrary<infer T> ? T : never;

function toInput(value: Generated, order: readonly number[] = []): WorkItemInput {
  const entries = order.length > 0 ? order.map((i) => value.files[i] as [string, ArtifactSource]) : value.files;
  return {
    id: 'w',
    dir: 'docs/specs/w',
    files: new Map(entries),
    approvals: value.approvals,
    digests: new Map(value.digests),
    approvers: value.approvers,
    selectedOptIns: value.selectedOptIns,
    recordedNode: value.recordedNode,
  };
}

describe('evaluateWorkItem: properties', () => {
  it('never throws for arbitrary file maps, and its result serialises to JSON', () => {
    fc.assert(
      fc.property(input, (value) => {
        const result = evaluateWorkItem(graph, toInput(value));
        expect(() => JSON.stringify(result)).not.toThrow();
        expect(result.findings.filter((d) => d.ruleId === 'internal-error')).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it('fails closed: ok only when no node is unmet and no finding is an error', () => {
    fc.assert(
      fc.property(input, (value) => {
        const result = evaluateWorkItem(graph, toInput(value));
        if (result.ok) {
          expect(result.currentNode).toBeNull();
          expect(result.findings.filter((d) => d.severity === 'error')).toEqual([]);
        }
        for (const node of result.nodes) {
          if (node.status === 'passed') expect([node.node, node.outcome]).toEqual([node.node, 'pass']);
          if (node.status === 'skipped') expect([node.node, node.outcome]).toEqual([node.node, 'skip']);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('places every finding inside the file it names, when that file exists', () => {
    fc.assert(
      fc.property(input, (value) => {
        const texts = new Map<string, string>(value.files.flatMap(([name, src]): [string, string][] => ('text' in src ? [[`docs/specs/w/${name}`, src.text.replace(/^\uFEFF/, '')]] : [])));
        for (const finding of evaluateWorkItem(graph, toInput(value)).findings) {
          const text = texts.get(finding.file);
          if (text === undefined || finding.line === undefined) continue;
          const lines = text.split(/\r\n|\r|\n/);
          const where = `${finding.ruleId} at ${finding.file}:${finding.line}:${finding.column}`;
          expect(finding.line, where).toBeGreaterThanOrEqual(1);
          expect(finding.line, where).toBeLessThanOrEqual(lines.length);
          expect(finding.column, where).toBeGreaterThanOrEqual(1);
          expect(finding.column, where).toBeLessThanOrEqual((lines[finding.line - 1] ?? '').length + 1);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('does not depend on the order files are inserted in the input Map', () => {
    const withOrder = input.chain((value) => fc.tuple(fc.constant(value), fc.shuffledSubarray([...value.files.keys()], { minLength: value.files.length })));
    fc.assert(
      fc.property(withOrder, ([value, order]) => {
        expect(evaluateWorkItem(graph, toInput(value, order))).toEqual(evaluateWorkItem(graph, toInput(value)));
      }),
      { numRuns: 150 },
    );
  });

  it('adding a ticked task to tasks.md never adds a finding', () => {
    const withTasks = fc.tuple(input, text);
    fc.assert(
      fc.property(withTasks, ([value, tasks]) => {
        const others = value.files.filter(([n]) => n !== 'tasks.md');
        const before = evaluateWorkItem(graph, toInput({ ...value, files: [...others, ['tasks.md', { text: tasks }]] }));
        const after = evaluateWorkItem(graph, toInput({ ...value, files: [...others, ['tasks.md', { text: `${tasks}\n\n- [x] one more finished task\n` }]] }));
        const key = (d: { ruleId: string; file: string; message: string; node?: string | undefined }): string => `${d.node} ${d.ruleId} ${d.file} ${d.message}`;
        const had = new Map<string, number>();
        for (const d of before.findings) had.set(key(d), (had.get(key(d)) ?? 0) + 1);
        for (const d of after.findings) {
          const left = had.get(key(d)) ?? 0;
          expect(left, `new finding: ${key(d)}`).toBeGreaterThan(0);
          had.set(key(d), left - 1);
        }
      }),
      { numRuns: 200 },
    );
  });
});
