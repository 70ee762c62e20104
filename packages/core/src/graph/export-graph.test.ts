import { JSDOM } from 'jsdom';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileGraph, getDefaultGraph } from './compile-graph.js';
import { graphDocument, graphToMermaid } from './export-graph.js';

// Mermaid's own parser is the judge of the diagram; its sanitiser needs a DOM, which jsdom provides.
type StateDb = {
  getStates(): Map<string, { descriptions?: string[]; classes?: string[] }>;
  getRelations(): { id1: string; id2: string; relationTitle: string }[];
};
let parse: (text: string) => Promise<StateDb>;

beforeAll(async () => {
  const dom = new JSDOM('');
  Object.assign(globalThis, { window: dom.window, document: dom.window.document });
  const { default: mermaid } = await import('mermaid');
  parse = async (text) => {
    await mermaid.parse(text);
    const diagram = await mermaid.mermaidAPI.getDiagramFromText(text);
    return diagram.db as unknown as StateDb;
  };
});

describe('graphToMermaid', () => {
  it('is a stateDiagram-v2 whose states and transitions are exactly the graph', async () => {
    const graph = getDefaultGraph();
    const db = await parse(graphToMermaid(graph, 'design'));
    const states = db.getStates();
    const byLabel = new Map([...states].map(([name, s]) => [s.descriptions?.[0] ?? name, name]));
    expect([...byLabel.keys()].filter((l) => graph.byId.has(l)).sort()).toEqual(graph.nodes.map((n) => n.id).sort());
    const relations = db.getRelations().filter((r) => !r.id1.includes('start') && !r.id2.includes('end'));
    const name = (id: string) => byLabel.get(id);
    expect(relations.map((r) => `${r.id1} ${r.id2} ${r.relationTitle}`).sort()).toEqual(graph.edges.map((e) => `${name(e.from)} ${name(e.to)} ${e.on}`).sort());
    expect(states.get('design')?.classes).toContain('current');
    expect(states.get('design_approval')?.classes).toEqual(['human']);
  });

  it('renders a repository graph and rejects nothing it produces', async () => {
    const compiled = compileGraph('g.yaml', 'start: a\nnodes:\n  - {id: a, phase: p, actor: agent}\n  - {id: b-2, phase: p, actor: human, gate: [{approved: a.md}]}\nedges:\n  - {from: a, to: b-2, on: pass}\n  - {from: b-2, to: a, on: changes-requested}\n');
    if (!compiled.ok) throw new Error('graph');
    const db = await parse(graphToMermaid(compiled.graph));
    expect(db.getRelations().map((r) => r.relationTitle).filter(Boolean)).toEqual(['pass', 'changes-requested']);
  });
});

describe('graphDocument', () => {
  it('keeps the YAML shape and drops derived fields', () => {
    const doc = graphDocument(getDefaultGraph());
    expect(doc.start).toBe('brainstorming');
    expect(doc.nodes[1]).toEqual({ id: 'requirements-definition', phase: 'requirements-definition', actor: 'agent', produces: 'requirements.md|bugfix.md', requires: ['brainstorming'], stage: 'requirements' });
    expect(doc.edges[0]).toEqual({ from: 'brainstorming', to: 'requirements-definition', on: 'pass' });
  });
});
