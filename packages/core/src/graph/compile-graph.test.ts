import { describe, expect, it } from 'vitest';
import { compileGraph, getDefaultGraph } from './compile-graph.js';
import { DEFAULT_GRAPH_YAML } from './default-graph.data.js';

const issues = (text: string): string[] => {
  const result = compileGraph('graph.yaml', text);
  return result.ok ? [] : result.issues.map((i) => `${i.line}:${i.column} ${i.message}`);
};

const yaml = (...lines: string[]): string => `${lines.join('\n')}\n`;

describe('compileGraph: ok', () => {
  it('compiles the default graph with every node reachable by id', () => {
    const result = compileGraph('default.yaml', DEFAULT_GRAPH_YAML);
    expect(result.ok).toBe(true);
    const graph = getDefaultGraph();
    expect(graph.start).toBe('brainstorming');
    expect(graph.byId.get('requirements-definition')?.alternatives).toEqual(['requirements.md', 'bugfix.md']);
    expect(graph.byId.get('requirements-approval')?.actor).toBe('human');
    for (const edge of graph.edges) {
      expect(graph.byId.has(edge.from) && graph.byId.has(edge.to)).toBe(true);
    }
  });

  it('compiles a minimal graph and splits produced alternatives', () => {
    const result = compileGraph('g.yaml', yaml('start: a', 'nodes:', '  - {id: a, phase: a, actor: agent, produces: "x.md | y.md"}', 'edges: []'));
    expect(result.ok && result.graph.byId.get('a')?.alternatives).toEqual(['x.md', 'y.md']);
  });
});

describe('compileGraph: every error at once, each at its YAML line:col', () => {
  it('reports a typo, a bad actor, maxAttempts 0, an unknown predicate, a duplicate id and an unknown edge target together', () => {
    const text = yaml(
      'start: a',
      'nodes:',
      '  - id: a',
      '    phase: a',
      '    actor: robot',
      '    sectons: [Overview]',
      '    maxAttempts: 0',
      '    produces: a.md',
      '    gate:',
      '      - sectionz: [Overview]',
      '  - id: a',
      '    phase: b',
      '    actor: agent',
      'edges:',
      '  - {from: a, to: zz, on: pass}',
    );
    const found = issues(text);
    expect(found.map((f) => f.split(' ')[0])).toEqual(['5:12', '6:14', '7:18', '10:19', '11:9', '15:19']);
    expect(found[0]).toContain('"robot"');
    expect(found[1]).toMatch(/unknown key "sectons" \(did you mean "sections"\?/);
    expect(found[2]).toContain('maxAttempts');
    expect(found[3]).toMatch(/unknown gate predicate "sectionz" \(did you mean "sections"\?\)/);
    expect(found[4]).toContain('duplicate node id "a"');
    expect(found[5]).toContain('edge to unknown node "zz"');
  });

  it('reports an edge from an unknown node and a route declared twice', () => {
    const text = yaml('start: a', 'nodes:', '  - {id: a, phase: a, actor: agent}', 'edges:', '  - {from: q, to: a, on: pass}', '  - {from: a, to: a, on: redo}', '  - {from: a, to: a, on: redo}');
    expect(issues(text)).toEqual([
      expect.stringMatching(/^5:12 edge from unknown node "q"/),
      expect.stringMatching(/^7:26 node "a" already has an edge on "redo"/),
    ]);
  });

  it('reports a cycle of pass edges, which would end the walk with every gate passing', () => {
    const nodes = ['nodes:', '  - {id: a, phase: a, actor: agent}', '  - {id: b, phase: b, actor: agent, optional: true}', '  - {id: c, phase: c, actor: agent}'];
    expect(issues(yaml('start: a', ...nodes, 'edges:', '  - {from: a, to: b, on: pass}', '  - {from: b, to: a, on: pass}'))).toEqual([
      expect.stringMatching(/^8:19 the pass and skip edges form a cycle \(a → b → a\)/),
    ]);
    expect(issues(yaml('start: a', ...nodes, 'edges:', '  - {from: a, to: b, on: pass}', '  - {from: b, to: c, on: skip}', '  - {from: c, to: a, on: pass}'))).toEqual([
      expect.stringMatching(/cycle \(a → b → c → a\)/),
    ]);
    expect(issues(yaml('start: a', ...nodes, 'edges:', '  - {from: a, to: a, on: pass}'))).toEqual([expect.stringMatching(/cycle \(a → a\)/)]);
    // A loop routed on another outcome is how review cycles are written, and stays allowed.
    expect(issues(yaml('start: a', ...nodes, 'edges:', '  - {from: a, to: b, on: pass}', '  - {from: b, to: a, on: changes-requested}', '  - {from: b, to: c, on: pass}'))).toEqual([]);
  });

  it('reports a start node that is not declared, and a missing start', () => {
    expect(issues(yaml('start: nope', 'nodes:', '  - {id: a, phase: a, actor: agent}', 'edges: []'))).toEqual([expect.stringMatching(/^1:8 start node "nope" is not declared \(nodes: a\)/)]);
    expect(issues(yaml('nodes:', '  - {id: a, phase: a, actor: agent}', 'edges: []'))).toEqual([expect.stringMatching(/^1:1 missing key "start"/)]);
  });

  it('reports an unknown top-level key with a suggestion', () => {
    expect(issues(yaml('start: a', 'nodez: []', 'nodes:', '  - {id: a, phase: a, actor: agent}', 'edges: []'))).toEqual([expect.stringMatching(/^2:8 unknown key "nodez" \(did you mean "nodes"\?\)/)]);
  });

  it('reports a predicate that reads an artifact on a node that produces none', () => {
    expect(issues(yaml('start: a', 'nodes:', '  - id: a', '    phase: a', '    actor: agent', '    gate:', '      - locked: true', 'edges: []'))).toEqual([
      expect.stringMatching(/^7:7 node "a" has a gate predicate that reads the produced artifact/),
    ]);
  });

  it('reports a predicate with two keys and a predicate with a bad value', () => {
    const text = yaml('start: a', 'nodes:', '  - id: a', '    phase: a', '    actor: agent', '    produces: a.md', '    gate:', '      - {locked: true, sections: [x]}', '      - reviewRounds: {type: self, min: 0}', 'edges: []');
    expect(issues(text)).toEqual([expect.stringMatching(/^8:7 a gate predicate has exactly one key; found 2/), expect.stringMatching(/^9:41 gate predicate "reviewRounds":/)]);
  });

  it('reads session, timeoutSeconds and references, and reports each wrong one at its line', () => {
    const ok = compileGraph('g.yaml', yaml('start: a', 'nodes:', '  - {id: a, phase: a, actor: agent, session: inherit, timeoutSeconds: 90, references: [docs/ref/a.md]}', 'edges: []'));
    expect(ok.ok && ok.graph.byId.get('a')).toMatchObject({ session: 'inherit', timeoutSeconds: 90, references: ['docs/ref/a.md'] });
    const text = yaml('start: a', 'nodes:', '  - id: a', '    phase: a', '    actor: agent', '    session: resume', '    timeoutSeconds: .inf', '    references: [../secrets.md, /etc/passwd]', '    referencs: []', 'edges: []');
    expect(issues(text)).toEqual([
      expect.stringMatching(/^6:14 node "a" session: Invalid type: Expected \("fresh" \| "inherit"\)/),
      expect.stringMatching(/^7:21 node "a" timeoutSeconds: must be finite/),
      expect.stringMatching(/^8:18 node "a" references\.0: must stay inside the repository/),
      expect.stringMatching(/^8:33 node "a" references\.1: must be relative to the repository root/),
      expect.stringMatching(/^9:16 node "a": unknown key "referencs" \(did you mean "references"\?\)/),
    ]);
  });

  it('reports YAML syntax errors at their line without compiling', () => {
    expect(issues('start: a\nnodes: [\n')).toEqual([expect.stringMatching(/^3:1 /)]);
  });
});

describe('compileGraph: a human node waits on a person', () => {
  const graph = (...nodeLines: string[]): string => yaml('start: a', 'nodes:', '  - {id: a, phase: a, actor: agent, produces: a.md}', ...nodeLines, 'edges:', '  - {from: a, to: review, on: pass}');

  it('refuses a human node without a gate, at its `actor:` line', () => {
    expect(issues(graph('  - id: review', '    phase: needs-review', '    actor: human'))).toEqual([
      '6:12 human node "review" has no gate predicate only a person can satisfy, so it would pass by itself: add `approved: <artifact>` to its gate',
    ]);
  });

  it('refuses a human node whose gate an agent can satisfy alone, at its `gate:` line', () => {
    const found = issues(graph('  - id: review', '    phase: needs-review', '    actor: human', '    produces: a.md', '    gate:', '      - locked: true', '      - sections: [Overview]'));
    expect(found).toEqual([expect.stringMatching(/^9:7 human node "review" has no gate predicate only a person can satisfy/)]);
  });

  it('compiles a human node whose gate holds `approved:`', () => {
    expect(issues(graph('  - {id: review, phase: needs-review, actor: human, produces: a.md, gate: [{locked: true}, {approved: a.md}]}'))).toEqual([]);
    expect(issues(graph('  - {id: review, phase: needs-review, actor: human, gate: [{approved: a.md}]}'))).toEqual([]);
  });

  it('leaves `escalated` alone while only escalation enters it, and refuses it once an edge leads there', () => {
    const escalated = (edge: string) => yaml('start: a', 'nodes:', '  - {id: a, phase: a, actor: agent}', '  - {id: escalated, phase: a, actor: human}', ...(edge ? ['edges:', edge] : ['edges: []']));
    expect(issues(escalated(''))).toEqual([]);
    expect(issues(escalated('  - {from: a, to: escalated, on: pass}'))).toEqual([expect.stringMatching(/^4:38 human node "escalated" has no gate predicate only a person can satisfy/)]);
  });

  it('reports every human node without a person-only predicate with the rest of the graph\'s errors (a misspelt `approved:` too)', () => {
    const found = issues(yaml('start: a', 'nodes:', '  - {id: a, phase: a, actor: agent}', '  - {id: b, phase: a, actor: human}', '  - {id: c, phase: a, actor: human, gate: [{aproved: a.md}]}', 'edges:', '  - {from: a, to: b, on: pass}'));
    expect(found.map((f) => f.split(' ').slice(0, 4).join(' '))).toEqual(['4:30 human node "b"', '5:43 human node "c"', '5:54 unknown gate predicate']);
  });
});
