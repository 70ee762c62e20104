import * as v from 'valibot';
import { compileGraphValue, getDefaultGraph } from '../graph/compile-graph.js';
import type { Graph } from '../graph/types.js';
import { DEFAULT_OUTCOME_WORDS, DEFAULT_REVIEW_CYCLES, REVIEW_OUTCOMES, type ReviewOutcome } from '../execution-log/review-cycles.js';
import { DEFAULT_GATE_SETTINGS, type GateSettings } from '../gate/settings.js';
import { defaultVerification, parseVerificationConfig, type VerificationConfig } from '../verification/config.js';
import { didYouMean } from '../yaml/schema-issues.js';
import { parseYamlSource, type KnownYamlValue, type SourceIssue, type YamlSource } from '../yaml/yaml-source.js';
import { configFileIssues } from './config-file.js';
import { DEFAULT_PRESET, isPresetName, PRESET_NAMES, PRESETS, presetGraph, type PresetName } from './presets.js';
import { ReviewSettingsSchema } from './reviews-schema.js';
import { RulesSchema, type RuleLevels } from './rule-levels.js';
import { WorkflowSchema } from './workflow-schema.js';

/** Configuration files, in the order they are looked for; the first that exists wins. */
export const CONFIG_FILES = ['.the-loop/harness-config.yaml', '.the-loop/config.yaml'] as const;

export const DEFAULT_SPEC_DIR = 'docs/specs';

export interface HarnessConfig {
  /** Which file the configuration came from, or undefined when none exists. */
  readonly file: string | undefined;
  /** The preset the configuration names (`workflow.preset`), else the-loop's own. */
  readonly preset: PresetName;
  readonly specDir: string;
  readonly graph: Graph;
  /** How gates read and report: `rules:` levels, the review table's heading and outcome words. */
  readonly gate: GateSettings;
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
  return { file: undefined, preset: DEFAULT_PRESET, specDir: DEFAULT_SPEC_DIR, graph: getDefaultGraph(), gate: DEFAULT_GATE_SETTINGS, verification: defaultVerification(), harness: undefined, timeoutSeconds: undefined, source: undefined };
}

/**
 * Parse `.the-loop/harness-config.yaml`. Every problem in the file is reported at once, each
 * with its line; an unparseable file is an error, never a silent fallback to the defaults.
 * `known`: the value an earlier parse of this very text found (see {@link parseYamlSource}).
 */
export function parseHarnessConfig(file: string, text: string, known?: KnownYamlValue): ConfigResult {
  const parsed = parseYamlSource(file, text, known);
  if (!parsed.ok) return parsed;
  const { source } = parsed;
  const root = source.value;
  if (root === null || root === undefined) return { ok: true, config: { ...defaultConfig(), file, source } };
  if (typeof root !== 'object' || Array.isArray(root)) {
    return { ok: false, issues: [{ file, line: 1, column: 1, message: 'the configuration must be a mapping of keys to values' }] };
  }
  const issues = configFileIssues(source);
  const workflow = v.safeParse(WorkflowSchema, (root as Record<string, unknown>)['workflow'] ?? {});
  const preset = (workflow.success ? workflow.output.preset : undefined) ?? DEFAULT_PRESET;
  let graph = presetGraph(preset);
  if (workflow.success && workflow.output.graph !== undefined) {
    const compiled = compileRepositoryGraph(source);
    if (compiled.ok) graph = compiled.graph;
    else issues.push(...compiled.issues);
  }
  const gate = gateSettings(source, issues);
  const verification = parseVerificationConfig(source);
  if (!verification.ok) issues.push(...verification.issues);
  if (issues.length > 0 || !workflow.success || !verification.ok) return { ok: false, issues: distinct(issues).sort((a, b) => a.line - b.line || a.column - b.column) };
  return {
    ok: true,
    config: {
      file,
      preset,
      specDir: normalizeDir(workflow.output.specDir ?? PRESETS[preset].specDir),
      graph,
      gate,
      verification: verification.verification,
      harness: workflow.output.harness,
      timeoutSeconds: workflow.output.timeoutSeconds,
      source,
    },
  };
}

// A section read on its own as well as with the whole file reports its problems twice: once each.
function distinct(issues: readonly SourceIssue[]): SourceIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.line}:${issue.column}:${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

// `rules:` and the review table's settings, read from a file whose shape was checked already;
// a word listed for two outcomes is a problem of its own.
function gateSettings(source: YamlSource, issues: SourceIssue[]): GateSettings {
  const root = source.value as Record<string, unknown>;
  // A section the file leaves out is its defaults, read without building its schema.
  const absent = (key: string) => root[key] === undefined || root[key] === null;
  const rules = absent('rules') ? undefined : v.safeParse(RulesSchema, root['rules']);
  const reviews = absent('reviews') ? undefined : v.safeParse(ReviewSettingsSchema, root['reviews']);
  const given = reviews?.success ? reviews.output : {};
  const outcomes = { ...DEFAULT_OUTCOME_WORDS, ...given.outcomes } as Record<ReviewOutcome, readonly string[]>;
  const meaning = new Map<string, ReviewOutcome>();
  for (const outcome of REVIEW_OUTCOMES) {
    for (const word of outcomes[outcome]) {
      const first = meaning.get(word);
      if (first !== undefined && first !== outcome) {
        const named = given.outcomes?.[outcome] !== undefined ? outcome : first;
        issues.push({ file: source.file, ...source.positionOf(['reviews', 'outcomes', named]), message: `reviews.outcomes.${named}: "${word}" already means ${named === outcome ? first : outcome}; a word means one outcome (list that outcome too to move it)` });
      }
      meaning.set(word, outcome);
    }
  }
  const sections = given.cyclesSection === undefined ? DEFAULT_REVIEW_CYCLES.sections : typeof given.cyclesSection === 'string' ? [given.cyclesSection] : given.cyclesSection;
  return { rules: rules?.success ? (rules.output as RuleLevels) : {}, reviewCycles: { sections, outcomes } };
}

// `workflow.graph` either replaces the graph or, with `extends: default` (the-loop's own) or
// `extends: <preset>`, adds to that one: nodes with a known id replace that node, new ids are
// appended, and an edge replaces the base graph's edge with the same `from` and `on`.
function compileRepositoryGraph(source: YamlSource): { ok: true; graph: Graph } | { ok: false; issues: SourceIssue[] } {
  const graphValue = ((source.value as Record<string, unknown>)['workflow'] as Record<string, unknown>)['graph'];
  if (graphValue && typeof graphValue === 'object' && !Array.isArray(graphValue) && 'extends' in graphValue) {
    const { extends: base, ...rest } = graphValue as Record<string, unknown>;
    const bases = ['default', ...PRESET_NAMES];
    if (base !== 'default' && !isPresetName(base)) {
      const hint = typeof base === 'string' ? didYouMean(base, bases) : '';
      return { ok: false, issues: [{ file: source.file, ...source.positionOf(['workflow', 'graph', 'extends']), message: `workflow.graph.extends: "${String(base)}" is not a graph to extend${hint}; it is one of ${bases.join(', ')}` }] };
    }
    // A list given in any other shape would be dropped by the merge: a silently weaker graph.
    const notLists = (['nodes', 'edges'] as const).filter((key) => key in rest && !Array.isArray(rest[key]));
    if (notLists.length > 0) {
      return { ok: false, issues: notLists.map((key) => ({ file: source.file, ...source.positionOf(['workflow', 'graph', key]), message: `workflow.graph.${key}: must be a list` })) };
    }
    const { graph: merged, nodeOrigin, edgeOrigin } = mergeGraph(structuredClone(PRESETS[base === 'default' ? DEFAULT_PRESET : base].data) as Record<string, unknown>, rest);
    // Map a path in the merged graph back to the line the project wrote; a problem inside a
    // base node or edge the project did not touch points at `extends`.
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
