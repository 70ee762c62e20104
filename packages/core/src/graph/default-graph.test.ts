import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { compileGraphData, getDefaultGraph } from './compile-graph.js';
import { PRESET_NAMES, PRESETS, presetGraph } from '../config/presets.js';
import { mainLine } from '../gate/evaluate-work-item.js';
import { DEFAULT_GRAPH_DATA, DEFAULT_GRAPH_YAML } from './default-graph.data.js';
import { NODE_FIELDS, NodeSchema } from './schema.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

describe('the default graph', () => {
  it('is generated from default-graph.yaml and the committed module is current', () => {
    const result = spawnSync(process.execPath, ['scripts/gen-default-graph.mjs', '--check'], { cwd: root, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(parse(DEFAULT_GRAPH_YAML)).toEqual(DEFAULT_GRAPH_DATA);
  });

  it('is the graph its data compiles to through the schema, field for field and in the same order', () => {
    const compiled = compileGraphData(DEFAULT_GRAPH_DATA, (_path, message) => ({ file: '<default graph>', line: 1, column: 1, message }));
    if (!compiled.ok) throw new Error(compiled.issues.map((i) => i.message).join('; '));
    const shipped = getDefaultGraph();
    expect(shipped).toStrictEqual(compiled.graph);
    expect(JSON.stringify({ ...shipped, byId: [...shipped.byId] })).toBe(JSON.stringify({ ...compiled.graph, byId: [...compiled.graph.byId] }));
  });

  it('is built in the order the schema lists a node\'s fields', () => {
    expect(NODE_FIELDS).toEqual(Object.keys(NodeSchema.entries));
  });

  it('splits the review chain that hid inside needs-review into its own nodes', () => {
    const graph = getDefaultGraph();
    const review = graph.nodes.filter((n) => n.phase === 'needs-review').map((n) => n.id);
    expect(review).toEqual(['self-review', 'critic-review', 'security-review', 'evidence', 'capability-docs', 'reviewer-briefing', 'human-approval', 'escalated']);
    expect(graph.byId.get('requirements-definition')?.alternatives).toEqual(['requirements.md', 'bugfix.md']);
  });
});

describe('the preset graphs', () => {
  it.each(PRESET_NAMES.filter((name) => name !== 'the-loop'))('%s compiles, is shipped as its YAML, and has no node waiting on a person', (name) => {
    const graph = presetGraph(name);
    expect(parse(PRESETS[name].yaml)).toEqual(PRESETS[name].data);
    expect(graph.nodes.filter((n) => n.actor === 'human')).toEqual([]);
    // The walk reaches every node, and the last one checks the tasks.
    expect(mainLine(graph).map((n) => n.id)).toEqual(graph.nodes.map((n) => n.id));
    expect(mainLine(graph).at(-1)?.gate).toEqual([{ tasksComplete: true }]);
  });

  it('the-loop preset is the default graph', () => {
    expect(presetGraph('the-loop')).toBe(getDefaultGraph());
  });
});
