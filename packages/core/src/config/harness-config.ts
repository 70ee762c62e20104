import * as v from 'valibot';
import { compileGraphValue, getDefaultGraph } from '../graph/compile-graph.js';
import { DEFAULT_GRAPH_DATA } from '../graph/default-graph.data.js';
import type { Graph } from '../graph/types.js';
import { parseYamlSource, type SourceIssue, type YamlSource } from '../yaml/yaml-source.js';

/** Configuration files, in the order they are looked for; the first that exists wins. */
export const CONFIG_FILES = ['.the-loop/harness-config.yaml', '.the-loop/config.yaml'] as const;

export const DEFAULT_SPEC_DIR = 'docs/specs';

const specDir = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, 'must not be empty'),
  v.check((dir) => !dir.startsWith('/') && !/^[A-Za-z]:/.test(dir), 'must be relative to the repository root'),
  v.check((dir) => !dir.split(/[\\/]/).includes('..'), 'must stay inside the repository (no "..")'),
);

/** `workflow` as the-loop reads it; other top-level keys of the file belong to other tools. */
export const WorkflowSchema = v.strictObject({
  specDir: v.optional(specDir),
  graph: v.optional(v.unknown()),
  // The phase list of earlier releases; the graph supersedes it and it is ignored.
  phases: v.optional(v.unknown()),
});

export interface HarnessConfig {
  /** Which file the configuration came from, or undefined when none exists. */
  readonly file: string | undefined;
  readonly specDir: string;
  readonly graph: Graph;
  /** The parsed file, for sections other modules read (`reviews`). */
  readonly source: YamlSource | undefined;
}

export type ConfigResult = { ok: true; config: HarnessConfig } | { ok: false; issues: SourceIssue[] };

/** The configuration used when the repository has no configuration file. */
export function defaultConfig(): HarnessConfig {
  return { file: undefined, specDir: DEFAULT_SPEC_DIR, graph: getDefaultGraph(), source: undefined };
}

/**
 * Parse `.the-loop/harness-config.yaml`. Every problem is reported with its line; an
 * unparseable file is an error, never a silent fallback to the defaults.
 */
export function parseHarnessConfig(file: string, text: string): ConfigResult {
  const parsed = parseYamlSource(file, text);
  if (!parsed.ok) return parsed;
  const { source } = parsed;
  const root = source.value;
  if (root === null || root === undefined) return { ok: true, config: { ...defaultConfig(), file, source } };
  if (typeof root !== 'object' || Array.isArray(root)) {
    return { ok: false, issues: [{ file, line: 1, column: 1, message: 'the configuration must be a mapping of keys to values' }] };
  }
  const workflowValue = (root as Record<string, unknown>)['workflow'];
  const workflow = v.safeParse(WorkflowSchema, workflowValue ?? {}, { abortEarly: false });
  if (!workflow.success) {
    return {
      ok: false,
      issues: workflow.issues.map((issue) => {
        const path = ['workflow', ...(issue.path ?? []).map((p) => p.key as PropertyKey)];
        const last = path[path.length - 1];
        const message = issue.kind === 'schema' && issue.expected === 'never' ? `unknown key "${String(last)}" in workflow (known: specDir, graph)` : `${path.join('.')}: ${issue.message}`;
        return { file, ...source.positionOf(path), message };
      }),
    };
  }
  let graph = getDefaultGraph();
  if (workflow.output.graph !== undefined) {
    const compiled = compileRepositoryGraph(source);
    if (!compiled.ok) return compiled;
    graph = compiled.graph;
  }
  return {
    ok: true,
    config: { file, specDir: normalizeDir(workflow.output.specDir ?? DEFAULT_SPEC_DIR), graph, source },
  };
}

// `workflow.graph` either replaces the default graph or, with `extends: default`, adds to it:
// nodes with a known id replace that node, new ids are appended, and an edge replaces the
// default edge with the same `from` and `on`.
function compileRepositoryGraph(source: YamlSource): { ok: true; graph: Graph } | { ok: false; issues: SourceIssue[] } {
  const graphValue = ((source.value as Record<string, unknown>)['workflow'] as Record<string, unknown>)['graph'];
  if (graphValue && typeof graphValue === 'object' && !Array.isArray(graphValue) && 'extends' in graphValue) {
    const { extends: base, ...rest } = graphValue as Record<string, unknown>;
    if (base !== 'default') {
      return { ok: false, issues: [{ file: source.file, ...source.positionOf(['workflow', 'graph', 'extends']), message: 'workflow.graph.extends: only "default" can be extended' }] };
    }
    const merged = mergeGraph(defaultGraphValue(), rest);
    return compileGraphValue({ ...source, value: { workflow: { graph: merged } } }, ['workflow', 'graph']);
  }
  return compileGraphValue(source, ['workflow', 'graph']);
}

function defaultGraphValue(): Record<string, unknown> {
  return structuredClone(DEFAULT_GRAPH_DATA) as Record<string, unknown>;
}

function mergeGraph(base: Record<string, unknown>, extension: Record<string, unknown>): Record<string, unknown> {
  const baseNodes = base['nodes'] as Record<string, unknown>[];
  const baseEdges = base['edges'] as Record<string, unknown>[];
  const nodes = [...baseNodes];
  const extraNodes = Array.isArray(extension['nodes']) ? (extension['nodes'] as unknown[]) : [];
  for (const node of extraNodes) {
    const id = (node as Record<string, unknown> | null)?.['id'];
    const at = nodes.findIndex((n) => n['id'] === id);
    if (at >= 0) nodes[at] = node as Record<string, unknown>;
    else nodes.push(node as Record<string, unknown>);
  }
  const extraEdges = Array.isArray(extension['edges']) ? (extension['edges'] as Record<string, unknown>[]) : [];
  const edges = baseEdges.filter((edge) => !extraEdges.some((e) => e?.['from'] === edge['from'] && e?.['on'] === edge['on']));
  edges.push(...extraEdges);
  const { nodes: _n, edges: _e, ...others } = extension;
  return { ...base, ...others, nodes, edges };
}

function normalizeDir(dir: string): string {
  return dir.replace(/\\/g, '/').replace(/\/+$/, '').replace(/^\.\//, '');
}
