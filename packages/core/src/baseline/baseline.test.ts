import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluateWorkItem, type WorkItemResult } from '../gate/evaluate-work-item.js';
import type { WorkItemInput } from '../gate/inputs.js';
import { getDefaultGraph } from '../graph/compile-graph.js';
import { applyBaseline, baselineCounts, baselineCountsByFile, baselineEntries, baselineGrowth, baselineOf, baselineUnion, baselineWithin, parseBaseline, serializeBaseline, type Baseline } from './baseline.js';

const DIR = 'docs/specs/w';
const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const REQUIREMENTS = '---\nstatus: approved\n---\n# Requirements\n';
// A log that claims implementation: the tasks are inspected while requirements wait on approval.
const LOG = '---\nphase: implementation\n---\n# Log\n';
const input = (tasks: string, extra: Record<string, string> = {}): WorkItemInput => ({
  id: 'w',
  dir: DIR,
  files: new Map(Object.entries({ 'requirements.md': REQUIREMENTS, 'tasks.md': tasks, 'execution-log.md': LOG, ...extra }).map(([name, text]) => [name, { text }])),
});
const evaluate = (item: WorkItemInput): WorkItemResult => evaluateWorkItem(getDefaultGraph(), item);
const baselineFor = (item: WorkItemInput): Baseline => baselineOf(baselineEntries(evaluate(item), item, sha));
const marked = (item: WorkItemInput, baseline: Baseline) => {
  const result = applyBaseline(evaluate(item), item, baselineCounts(baseline), sha);
  return { result, tasks: result.findings.filter((d) => d.ruleId === 'tasks-incomplete').map((d) => `${d.line} ${d.baselined === true ? 'baselined' : 'new'}`) };
};

const TASKS = '# Tasks\n\n- [ ] Write the importer\n- [x] Parse the header\n- [ ] Write the importer\n';

describe('the baseline: fingerprints that survive unrelated edits', () => {
  it('counts findings by rule, file and line text; never by line number', () => {
    const entries = baselineEntries(evaluate(input(TASKS)), input(TASKS), sha).filter((e) => e.ruleId === 'tasks-incomplete');
    expect(entries).toEqual([{ ruleId: 'tasks-incomplete', file: `${DIR}/tasks.md`, lineDigest: sha('- [ ] Write the importer').slice(0, 16), count: 2, message: expect.stringContaining('Write the importer') }]);
  });

  it('keeps a finding baselined when lines above it are added and it is re-indented', () => {
    const baseline = baselineFor(input(TASKS));
    const moved = input(`# Tasks\n\nSome context someone added.\n\n- [x] Parse the header\n-   [ ]   Write the importer\n\n- [ ]  Write the importer\n`);
    expect(marked(moved, baseline).tasks).toEqual(['6 baselined', '8 baselined']);
  });

  it('fails a new finding beside baselined ones, and one more copy of a baselined line', () => {
    const baseline = baselineFor(input(TASKS));
    const { result, tasks } = marked(input(`${TASKS}- [ ] Write the importer\n- [ ] Ship it\n`), baseline);
    expect(tasks).toEqual(['3 baselined', '5 baselined', '6 new', '7 new']);
    expect(result.ok).toBe(false);
  });

  it('treats an edited line as a new finding', () => {
    expect(marked(input(TASKS.replaceAll('Write the importer', 'Write the CSV importer')), baselineFor(input(TASKS))).tasks).toEqual(['3 new', '5 new']);
  });

  it('makes a result whose errors are all baselined ok, and leaves where it stands as it was', () => {
    const item = input(TASKS);
    const before = evaluate(item);
    const after = applyBaseline(before, item, baselineCounts(baselineFor(item)), sha);
    expect(before.ok).toBe(false);
    expect(after.ok).toBe(true);
    expect(after.currentNode).toBe(before.currentNode);
    expect(after.nodes.map((n) => [n.node, n.status, n.outcome])).toEqual(before.nodes.map((n) => [n.node, n.status, n.outcome]));
    expect(after.nodes.flatMap((n) => n.findings).every((d) => d.baselined === true)).toBe(true);
  });

  it('accepts as many findings each time the same counts are applied, as a run applies them to every work item', () => {
    const accepted = baselineCounts(baselineFor(input(TASKS)));
    const tasksOf = (item: WorkItemInput) =>
      applyBaseline(evaluate(item), item, accepted, sha)
        .findings.filter((d) => d.ruleId === 'tasks-incomplete')
        .map((d) => `${d.line} ${d.baselined === true ? 'baselined' : 'new'}`);
    const grown = input(`${TASKS}- [ ] Write the importer\n`);
    // The same item twice (a hook evaluates it again), another beside it, then the first again:
    // what one application used up is not taken from the next.
    expect(tasksOf(grown)).toEqual(['3 baselined', '5 baselined', '6 new']);
    expect(tasksOf(grown)).toEqual(['3 baselined', '5 baselined', '6 new']);
    expect(tasksOf(input(TASKS.replaceAll('importer', 'exporter')))).toEqual(['3 new', '5 new']);
    expect(tasksOf(input(TASKS))).toEqual(['3 baselined', '5 baselined']);
  });

  it('marks a work item through the counts for the files of its findings as through the whole baseline (property)', () => {
    const line = fc.constantFrom('- [ ] Write the importer', '- [ ] Ship it', '- [x] Parse the header', '- [ ] Write the exporter', 'Some context.');
    const tasks = fc.array(line, { maxLength: 8 }).map((lines) => `# Tasks\n\n${lines.join('\n')}\n`);
    fc.assert(
      fc.property(tasks, tasks, tasks, (recorded, other, now) => {
        // A baseline of this work item and of another one, applied to the item as it is now.
        const elsewhere = { ...input(other), id: 'v', dir: 'docs/specs/v' };
        const counts = baselineCounts(baselineOf([...baselineEntries(evaluate(input(recorded)), input(recorded), sha), ...baselineEntries(evaluate(elsewhere), elsewhere, sha)]));
        const result = evaluate(input(now));
        const byFile = baselineCountsByFile(counts, new Set(result.findings.map((d) => d.file)));
        const kept = new Map([...byFile.values()].flat());
        expect(applyBaseline(result, input(now), kept, sha)).toEqual(applyBaseline(result, input(now), counts, sha));
        // Each entry is under its own file, and only there.
        for (const [file, entries] of byFile) for (const [key] of entries) expect(key.split('\u0000')[1]).toBe(file);
      }),
    );
  });

  it('never baselines a rule that keeps the gate failing closed', () => {
    const item = { ...input(TASKS), graphStateIssues: [{ file: `${DIR}/graph-state.json`, line: 1, column: 1, message: 'not valid JSON' }] };
    const baseline = baselineFor(item);
    expect(baseline.findings.map((e) => e.ruleId)).not.toContain('graph-state-invalid');
    const { result } = marked(item, baseline);
    expect(result.ok).toBe(false);
    expect(result.findings.find((d) => d.ruleId === 'graph-state-invalid')?.baselined).toBeUndefined();
  });
});

describe('baselineGrowth', () => {
  const entry = (lineDigest: string, count: number) => ({ ruleId: 'tasks-incomplete' as const, file: `${DIR}/tasks.md`, lineDigest, count, message: 'm' });

  it('lists entries added or counted more often, and nothing for a baseline that shrank', () => {
    const before = baselineOf([entry('00000000000000aa', 1), entry('00000000000000bb', 3)]);
    const after = baselineOf([entry('00000000000000aa', 2), entry('00000000000000bb', 1), entry('00000000000000cc', 1)]);
    expect(baselineGrowth(before, after).map((g) => [g.entry.lineDigest, g.before, g.entry.count])).toEqual([
      ['00000000000000aa', 1, 2],
      ['00000000000000cc', 0, 1],
    ]);
    expect(baselineGrowth(after, before).map((g) => g.entry.lineDigest)).toEqual(['00000000000000bb']);
    expect(baselineGrowth(undefined, before)).toHaveLength(2);
  });
});

// Baselines over a few keys, so that generated ones share entries.
const someBaseline: fc.Arbitrary<Baseline> = fc
  .uniqueArray(
    fc.record({
      ruleId: fc.constantFrom('tasks-incomplete' as const, 'section-empty' as const),
      file: fc.constantFrom(`${DIR}/tasks.md`, `${DIR}/design.md`),
      lineDigest: fc.constantFrom('00000000000000aa', '00000000000000bb'),
      count: fc.integer({ min: 1, max: 4 }),
      message: fc.constant('m'),
    }),
    { selector: (e) => `${e.ruleId} ${e.file} ${e.lineDigest}`, maxLength: 8 },
  )
  .map(baselineOf);
const counts = (b: Baseline | undefined) => new Map((b?.findings ?? []).map((e) => [`${e.ruleId} ${e.file} ${e.lineDigest}`, e.count]));

describe('baselineUnion and baselineWithin', () => {
  it('a union accepts what each baseline accepts, each entry as often as the most, and no more (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.option(someBaseline, { nil: undefined }), { maxLength: 4 }), (list) => {
        const union = baselineUnion(list);
        if (list.every((b) => b === undefined)) expect(union).toBeUndefined();
        for (const b of list) if (b) expect(baselineGrowth(union, b)).toEqual([]);
        for (const [key, count] of counts(union)) expect(count).toBe(Math.max(...list.map((b) => counts(b).get(key) ?? 0)));
      }),
    );
  });

  it('within a limit keeps what the limit accepts too, and nothing it grew beyond it (property)', () => {
    fc.assert(
      fc.property(someBaseline, fc.option(someBaseline, { nil: undefined }), (baseline, limit) => {
        const within = baselineWithin(baseline, limit);
        expect(baselineGrowth(limit, within)).toEqual([]);
        expect(baselineGrowth(within, baseline).length).toBe(baselineGrowth(limit, baseline).length);
        for (const [key, count] of counts(within)) expect(count).toBe(Math.min(counts(baseline).get(key)!, counts(limit).get(key)!));
      }),
    );
  });

  it('a session that accepted its own new finding has it accepted no more', () => {
    const entry = (lineDigest: string, count: number) => ({ ruleId: 'tasks-incomplete' as const, file: `${DIR}/tasks.md`, lineDigest, count, message: 'm' });
    const committed = baselineOf([entry('00000000000000aa', 1)]);
    const edited = baselineOf([entry('00000000000000aa', 2), entry('00000000000000bb', 1)]);
    expect(baselineWithin(edited, committed)).toEqual(committed);
    expect(baselineWithin(edited, undefined)).toEqual(baselineOf([]));
  });
});

describe('parseBaseline and serializeBaseline', () => {
  it('reads back what it writes, in a stable order (property)', () => {
    const entry = fc.record({
      ruleId: fc.constantFrom('tasks-incomplete' as const, 'section-empty' as const, 'approval-missing' as const),
      file: fc.constantFrom('docs/specs/a/tasks.md', 'docs/specs/b/design.md'),
      lineDigest: fc.stringMatching(/^[0-9a-f]{16}$/),
      count: fc.integer({ min: 1, max: 5 }),
      message: fc.string({ maxLength: 20 }),
    });
    fc.assert(
      fc.property(fc.uniqueArray(entry, { selector: (e) => `${e.ruleId} ${e.file} ${e.lineDigest}`, maxLength: 8 }), (entries) => {
        const text = serializeBaseline(baselineOf(entries));
        const read = parseBaseline('b.json', text);
        expect(read.ok && serializeBaseline(read.baseline)).toBe(text);
        expect(serializeBaseline(baselineOf([...entries].reverse()))).toBe(text);
      }),
    );
  });

  it('reports every problem at its line instead of reading a broken baseline as empty', () => {
    const result = parseBaseline('b.json', '{\n  "schemaVersion": 1,\n  "findings": [\n    {"ruleId": "no-such-rule", "file": "f", "lineDigest": "xyz", "count": 0, "message": ""}\n  ]\n}\n');
    expect(!result.ok && result.issues.map((i) => `${i.line} ${i.message}`)).toEqual([
      '4 findings[0].ruleId: must be a rule id',
      '4 findings[0].lineDigest: must be 16 hex digits',
      '4 findings[0].count: must be at least 1',
    ]);
    expect(parseBaseline('b.json', '{"schemaVersion": 1, "findings": [')).toMatchObject({ ok: false, issues: [{ line: 1 }] });
  });
});
