import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseArtifact } from '../artifact/parse-artifact.js';
import { RULE_IDS, type Diagnostic } from '../diagnostic.js';
import { evaluateWorkItem } from '../gate/evaluate-work-item.js';
import type { ArtifactSource } from '../gate/inputs.js';
import { DEFAULT_GATE_SETTINGS } from '../gate/settings.js';
import { graphStateInput, GRAPH_STATE_FILE, parseGraphState } from '../graph-state/graph-state.js';
import { compileGraph, getDefaultGraph } from '../graph/compile-graph.js';
import { GATE_PREDICATES } from '../graph/schema.js';
import { BASELINE_FILE, parseBaseline } from '../baseline/baseline.js';
import { baselineGrew } from './baseline-grown.js';
import { RULES } from './index.js';
import { PREDICATES } from './predicates.js';
import type { Rule, RuleExample, RuleExamples } from './rule.js';

// Every rule is one module here, documented in docs/rules.md, with ok and not-ok examples that
// behave as they say. Adding a rule without any of the three fails this file.
const SUPPORT = new Set(['index.ts', 'rule.ts', 'predicates.ts', 'predicate-sources.ts']);
const FILES = readdirSync(new URL('.', import.meta.url)).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !SUPPORT.has(f));
const DOCS = parseArtifact('docs/rules.md', readFileSync(new URL('../../../../docs/rules.md', import.meta.url), 'utf8'));
const DIR = 'docs/specs/w';

/** Where `rule` reports on an example work item, as `file:line:col` relative to its folder. */
function run(rule: Rule, example: RuleExample): string[] {
  if (example.baselines) {
    const read = (text: string) => {
      const parsed = parseBaseline(BASELINE_FILE, text);
      if (!parsed.ok) throw new Error('the example baseline does not parse');
      return parsed.baseline;
    };
    const before = example.baselines.before === undefined ? undefined : read(example.baselines.before);
    return baselineGrew(before, read(example.baselines.after), example.baselines.after, 'main').filter((d) => d.ruleId === rule.id).map((d) => `${d.file}:${d.line}:${d.column}`);
  }
  const compiled = example.graph === undefined ? { ok: true as const, graph: getDefaultGraph() } : compileGraph('graph.yaml', example.graph);
  if (!compiled.ok) throw new Error(`the example graph does not compile: ${compiled.issues.map((i) => `${i.line}:${i.column} ${i.message}`).join('; ')}`);
  const files = new Map(Object.entries(example.files).map(([name, v]): [string, ArtifactSource] => [name, typeof v === 'string' ? { text: v } : v]));
  const state = example.graphState === undefined ? undefined : parseGraphState(`${DIR}/${GRAPH_STATE_FILE}`, example.graphState, 'w');
  const result = evaluateWorkItem(compiled.graph, { id: 'w', dir: DIR, files, ...graphStateInput(state), ...example.input }, { ...DEFAULT_GATE_SETTINGS, ...example.settings });
  const place = (d: Diagnostic) => `${d.file.startsWith(`${DIR}/`) ? d.file.slice(DIR.length + 1) : d.file}${d.line === undefined ? '' : `:${d.line}:${d.column}`}`;
  return result.findings.filter((d) => d.ruleId === rule.id).map(place);
}

describe('the rule registry', () => {
  it('has one module per rule id, named after it, registered in RULE_IDS order', () => {
    expect(FILES.map((f) => f.replace(/\.ts$/, '')).sort()).toEqual([...RULE_IDS].sort());
    expect(RULES.map((rule) => rule.id)).toEqual([...RULE_IDS]);
  });

  it('documents every rule in docs/rules.md, one written section each, in RULE_IDS order', () => {
    const sections = DOCS.sections.filter((s) => s.depth === 2);
    expect(sections.map((s) => s.title)).toEqual([...RULE_IDS]);
    expect(sections.filter((s) => s.empty).map((s) => s.title)).toEqual([]);
    for (const rule of RULES) expect(rule.url).toBe(`docs/rules.md#${rule.id}`);
  });

  it('maps every gate key to the rules that check it, and no rule checks a key the graph does not have', () => {
    expect(Object.keys(PREDICATES).sort()).toEqual(Object.keys(GATE_PREDICATES).sort());
    for (const [key, entry] of Object.entries(PREDICATES)) expect(entry.rules.length, key).toBeGreaterThan(0);
    for (const rule of RULES) for (const key of Object.keys(rule.predicates)) expect(Object.keys(GATE_PREDICATES)).toContain(key);
  });
});

describe.each(FILES)('rules/%s', (file) => {
  const load = () => import(`./${file}`) as Promise<{ rule: Rule; examples: () => RuleExamples }>;

  it('is the rule its file is named after, with at least one ok and one not-ok example', async () => {
    const { rule, examples: read } = await load();
    const examples = read();
    expect(rule.id).toBe(file.replace(/\.ts$/, ''));
    expect(examples.ok.length).toBeGreaterThan(0);
    expect(examples.notOk.length).toBeGreaterThan(0);
  });

  it('reports exactly where each not-ok example says, and nothing on an ok example', async () => {
    const { rule, examples: read } = await load();
    const examples = read();
    for (const example of examples.notOk) {
      expect(example.findings?.length, example.title).toBeGreaterThan(0);
      expect(run(rule, example), example.title).toEqual(example.findings);
    }
    for (const example of examples.ok) expect(run(rule, example), example.title).toEqual([]);
  });
});
