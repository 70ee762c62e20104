// A preset fits the-loop to a layout a team already has: where its work items live and a graph
// that reads the files its tool writes. A preset's graph is a graph file like any other, and
// `workflow.graph.extends: <preset>` builds on it.
import { compileGraphData, getDefaultGraph } from '../graph/compile-graph.js';
import { DEFAULT_GRAPH_DATA, DEFAULT_GRAPH_YAML } from '../graph/default-graph.data.js';
import { PRESET_GRAPHS } from '../graph/presets/presets.data.js';
import type { Graph } from '../graph/types.js';

export const PRESET_NAMES = ['the-loop', 'kiro', 'spec-kit', 'openspec'] as const;
export type PresetName = (typeof PRESET_NAMES)[number];

/** The preset a repository gets when its configuration names none. */
export const DEFAULT_PRESET: PresetName = 'the-loop';

export interface Preset {
  readonly name: PresetName;
  /** The tool whose layout it reads, for people. */
  readonly title: string;
  /** Where that tool keeps its work items, relative to the repository root. */
  readonly specDir: string;
  /** A path (from the repository root) whose presence says the repository follows this layout. */
  readonly marker: string;
  /** Folders under the spec root that hold finished work rather than work items. */
  readonly archives: readonly string[];
  /** The graph as shipped: YAML text and the same graph parsed. */
  readonly yaml: string;
  readonly data: unknown;
}

function shipped(name: PresetName): { yaml: string; data: unknown } {
  const graph = PRESET_GRAPHS[name];
  if (!graph) throw new Error(`the ${name} preset's graph is not generated: run node scripts/gen-default-graph.mjs`);
  return graph;
}

export const PRESETS: Readonly<Record<PresetName, Preset>> = {
  'the-loop': { name: 'the-loop', title: 'the-loop', specDir: 'docs/specs', marker: 'docs/specs', archives: [], yaml: DEFAULT_GRAPH_YAML, data: DEFAULT_GRAPH_DATA },
  kiro: { name: 'kiro', title: 'Kiro', specDir: '.kiro/specs', marker: '.kiro/specs', archives: [], ...shipped('kiro') },
  'spec-kit': { name: 'spec-kit', title: 'spec-kit', specDir: 'specs', marker: '.specify', archives: [], ...shipped('spec-kit') },
  openspec: { name: 'openspec', title: 'OpenSpec', specDir: 'openspec/changes', marker: 'openspec', archives: ['archive'], ...shipped('openspec') },
};

/** Whether a name is a preset's. */
export function isPresetName(name: unknown): name is PresetName {
  return typeof name === 'string' && (PRESET_NAMES as readonly string[]).includes(name);
}

const compiled = new Map<PresetName, Graph>();

/** A preset's graph, compiled once. */
export function presetGraph(name: PresetName): Graph {
  if (name === 'the-loop') return getDefaultGraph();
  let graph = compiled.get(name);
  if (!graph) {
    const result = compileGraphData(PRESETS[name].data, (_path, message) => ({ file: `<${name} preset>`, line: 1, column: 1, message }));
    if (!result.ok) throw new Error(`the ${name} preset's graph does not compile: ${result.issues.map((i) => i.message).join('; ')}`);
    graph = result.graph;
    compiled.set(name, graph);
  }
  return graph;
}
