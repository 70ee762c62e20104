import * as v from 'valibot';
import { compileGraphValue, getDefaultGraph } from '../graph/compile-graph.js';
import { DEFAULT_GRAPH_DATA } from '../graph/default-graph.data.js';
import { repositoryPath, timeoutSeconds } from '../graph/schema.js';
import type { Graph } from '../graph/types.js';
import { defaultVerification, parseVerificationConfig, type VerificationConfig } from '../verification/config.js';
import { atSource, schemaIssues } from '../yaml/schema-issues.js';
import { parseYamlSource, type SourceIssue, type YamlSource } from '../yaml/yaml-source.js';

/** Configuration files, in the order they are looked for; the first that exists wins. */
export const CONFIG_FILES = ['.the-loop/harness-config.yaml', '.the-loop/config.yaml'] as const;

export const DEFAULT_SPEC_DIR = 'docs/specs';

/** `workflow` as the-loop reads it; other top-level keys of the file belong to other tools. */
export const WorkflowSchema = v.strictObject({
  specDir: v.optional(repositoryPath),
  graph: v.optional(v.unknown()),
  /** The harness `the-loop run` drives when `--harness` is not given (default `claude`). */
  harness: v.optional(v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9-]*$/, 'must be a harness name such as claude or cursor'))),
  /** Seconds one harness run at a node may take when the node sets no `timeoutSeconds` (default 1800). */
  timeoutSeconds: v.optional(timeoutSeconds),
  // The phase list of earlier releases; the graph supersedes it and it is ignored.
  phases: v.optional(v.unknown()),
});

export interface HarnessConfig {
  /** Which file the configuration came from, or undefined when none exists. */
  readonly file: string | undefined;
  readonly specDir: string;
  readonly graph: Graph;
  /** `verification:`: the checks that prove a work item, and what fingerprints their environment. */
  readonly verification: VerificationConfig;
  /** `workflow.harness`: the harness an orchestrated run drives, when the file names one. */
  readonly harness: string | undefined;
  /** `workflow.timeoutSeconds`: the default time limit of one harness run at a node. */
  readonly timeoutSeconds: number | undefined;
  /** The parsed file, for sections other modules read (`reviews`). */
  readonly source: YamlSource | undefined;
}

export type ConfigResult = { ok: true; config: HarnessConfig } | { ok: false; issues: SourceIssue[] };

/** The configuration used when the repository has no configuration file. */
export function defaultConfig(): HarnessConfig {
  return { file: undefined, specDir: DEFAULT_SPEC_DIR, graph: getDefaultGraph(), verification: defaultVerification(), harness: undefined, timeoutSeconds: undefined, source: undefined };
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
    return { ok: false, issues: schemaIssues(WorkflowSchema, workflow.issues, atSource(source), { base: ['workflow'] }) };
  }
  let graph = getDefaultGraph();
  if (workflow.output.graph !== undefined) {
    const compiled = compileRepositoryGraph(source);
    if (!compiled.ok) return compiled;
    graph = compiled.graph;
  }
  const verification = parseVerificationConfig(source);
  if (!verification.ok) return verification;
  return {
    ok: true,
    config: {
      file,
      specDir: normalizeDir(workflow.output.specDir ?? DEFAULT_SPEC_DIR),
      graph,
      verification: verification.verification,
      harness: workflow.output.harness,
      timeoutSeconds: workflow.output.timeoutSeconds,
      source,
    },
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
    // A list given in any other shape would be dropped by the merge: a silently weaker graph.
    const notLists = (['nodes', 'edges'] as const).filter((key) => key in rest && !Array.isArray(rest[key]));
    if (notLists.length > 0) {
      return { ok: false, issues: notLists.map((key) => ({ file: source.file, ...source.positionOf(['workflow', 'graph', key]), message: `workflow.graph.${key}: must be a list` })) };
    }
    const { graph: merged, nodeOrigin, edgeOrigin } = mergeGraph(defaultGraphValue(), rest);
    // Map a path in the merged graph back to the line the project wrote; a problem inside a
    // default node or edge the project did not touch points at `extends`.
    const positionOf = (path: readonly PropertyKey[]) => {
      const [list, index, ...tail] = path;
      if ((list === 'nodes' || list === 'edges') && typeof index === 'number') {
        const origin = (list === 'nodes' ? nodeOrigin : edgeOrigin)[index];
        return origin === undefined ? source.positionOf(['workflow', 'graph', 'extends']) : source.positionOf(['workflow', 'graph', list, origin, ...tail]);
      }
      return source.positionOf(['workflow', 'graph', ...path]);
    };
    return compileGraphValue({ ...source, value: merged, positionOf }, []);
  }
  return compileGraphValue(source, ['workflow', 'graph']);
}

function defaultGraphValue(): Record<string, unknown> {
  return structuredClone(DEFAULT_GRAPH_DATA) as Record<string, unknown>;
}

// The merged graph, plus for each merged node and edge the index it has in the project's
// extension (undefined for one that comes from the default graph unchanged).
function mergeGraph(
  base: Record<string, unknown>,
  extension: Record<string, unknown>,
): { graph: Record<string, unknown>; nodeOrigin: (number | undefined)[]; edgeOrigin: (number | undefined)[] } {
  const baseNodes = base['nodes'] as Record<string, unknown>[];
  const baseEdges = base['edges'] as Record<string, unknown>[];
  const nodes = [...baseNodes];
  const nodeOrigin: (number | undefined)[] = nodes.map(() => undefined);
  const extraNodes = Array.isArray(extension['nodes']) ? (extension['nodes'] as unknown[]) : [];
  extraNodes.forEach((node, index) => {
    const id = (node as Record<string, unknown> | null)?.['id'];
    // Only a default node not yet replaced: an id the extension repeats is appended, so the
    // compiler reports it as a duplicate instead of the later entry silently winning.
    const at = nodes.findIndex((n, i) => i < baseNodes.length && nodeOrigin[i] === undefined && n['id'] === id);
    if (at >= 0) {
      nodes[at] = node as Record<string, unknown>;
      nodeOrigin[at] = index;
    } else {
      nodes.push(node as Record<string, unknown>);
      nodeOrigin.push(index);
    }
  });
  const extraEdges = Array.isArray(extension['edges']) ? (extension['edges'] as Record<string, unknown>[]) : [];
  const edges = baseEdges.filter((edge) => !extraEdges.some((e) => e?.['from'] === edge['from'] && e?.['on'] === edge['on']));
  const edgeOrigin: (number | undefined)[] = edges.map(() => undefined);
  edges.push(...extraEdges);
  edgeOrigin.push(...extraEdges.map((_, index) => index));
  const { nodes: _n, edges: _e, ...others } = extension;
  return { graph: { ...base, ...others, nodes, edges }, nodeOrigin, edgeOrigin };
}

function normalizeDir(dir: string): string {
  return dir.replace(/\\/g, '/').replace(/\/+$/, '').replace(/^\.\//, '');
}
