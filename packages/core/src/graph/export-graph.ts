import type { Graph } from './types.js';

/** The compiled graph in the YAML's own shape (`alternatives` is derived, so it is left out). */
export function graphDocument(graph: Graph): { start: string; nodes: Record<string, unknown>[]; edges: { from: string; to: string; on: string }[] } {
  return {
    start: graph.start,
    nodes: graph.nodes.map(({ alternatives: _alternatives, gate, ...node }) => ({ ...node, ...(gate.length > 0 ? { gate } : {}) })),
    edges: graph.edges.map(({ from, to, on }) => ({ from, to, on })),
  };
}

/**
 * A Mermaid `stateDiagram-v2` of the graph. Node ids keep their hyphens in the labels; the
 * state names use underscores because Mermaid reads `-` in a state name as part of an arrow.
 * With `current`, that node is highlighted through a classDef.
 */
export function graphToMermaid(graph: Graph, current?: string | null): string {
  const name = (id: string): string => id.replace(/-/g, '_');
  const lines = ['stateDiagram-v2'];
  for (const node of graph.nodes) lines.push(`  state "${node.id}" as ${name(node.id)}`);
  lines.push(`  [*] --> ${name(graph.start)}`);
  for (const edge of graph.edges) lines.push(`  ${name(edge.from)} --> ${name(edge.to)} : ${edge.on}`);
  for (const node of graph.nodes) {
    const leaves = !graph.edges.some((e) => e.from === node.id);
    const entered = node.id === graph.start || graph.edges.some((e) => e.to === node.id);
    if (leaves && entered) lines.push(`  ${name(node.id)} --> [*]`);
  }
  const human = graph.nodes.filter((n) => n.actor === 'human').map((n) => name(n.id));
  lines.push('  classDef human fill:#fff3c4,stroke:#b58900');
  if (human.length > 0) lines.push(`  class ${human.join(', ')} human`);
  if (current && graph.byId.has(current)) {
    lines.push('  classDef current fill:#ffb3a7,stroke:#c0392b,stroke-width:3px,font-weight:bold');
    lines.push(`  class ${name(current)} current`);
  }
  return `${lines.join('\n')}\n`;
}

/** People's text: one line per node with its actor and outgoing edges. */
export function graphToText(graph: Graph, current?: string | null): string {
  const lines = [`start: ${graph.start}`];
  for (const node of graph.nodes) {
    const out = graph.edges.filter((e) => e.from === node.id).map((e) => `${e.on} → ${e.to}`);
    const flags = [node.actor, node.optional ? 'optional' : '', node.optIn ? 'opt-in' : '', node.maxAttempts ? `maxAttempts ${node.maxAttempts}` : ''].filter(Boolean);
    lines.push(`${node.id === current ? '▶' : ' '} ${node.id}  [${flags.join(', ')}]${out.length > 0 ? `  ${out.join(', ')}` : ''}`);
  }
  return `${lines.join('\n')}\n`;
}
