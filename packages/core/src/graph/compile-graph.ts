import * as v from 'valibot';
import { didYouMean, dottedPath, schemaIssues, type IssueAt } from '../yaml/schema-issues.js';
import { parseYamlSource, type SourceIssue, type YamlSource } from '../yaml/yaml-source.js';
import { defaultGraphData } from './default-graph.data.js';
import { ESCALATED_NODE } from '../graph-state/graph-state.js';
import { PREDICATES } from '../rules/predicates.js';
import { GATE_PREDICATES, GraphSchema, NODE_FIELDS, NodeSchema, type GatePredicateKind, type GraphInput } from './schema.js';
import type { Graph, GraphNode } from './types.js';

export type CompileResult = { ok: true; graph: Graph } | { ok: false; issues: SourceIssue[] };

/** Compile a graph YAML document. Every error is reported at once, each with its position. */
export function compileGraph(file: string, text: string): CompileResult {
  const parsed = parseYamlSource(file, text);
  if (!parsed.ok) return parsed;
  return compileGraphValue(parsed.source, []);
}

/** Compile the graph found at `basePath` inside an already-parsed YAML file. */
export function compileGraphValue(source: YamlSource, basePath: readonly PropertyKey[]): CompileResult {
  const value = basePath.reduce<unknown>((acc, key) => (isRecord(acc) ? acc[key as string] : undefined), source.value);
  return compileGraphData(value, (path, message) => ({ file: source.file, ...source.positionOf([...basePath, ...path]), message }));
}

/** Compile a graph from plain data; `issueAt` places each problem (a YAML position, when there is one). */
export function compileGraphData(value: unknown, issue: IssueAt): CompileResult {
  const result = v.safeParse(GraphSchema, value, { abortEarly: false });
  if (!result.success) {
    // Report the graph's structural mistakes (unknown nodes, duplicates) alongside the schema's.
    const schema = result.issues.map((i) => schemaIssue(i, value, issue));
    const seen = new Set(schema.map((i) => `${i.line}:${i.column}:${i.message}`));
    const issues = [...schema, ...semanticIssues(lenientGraph(value), issue).filter((i) => !seen.has(`${i.line}:${i.column}:${i.message}`))];
    return { ok: false, issues: issues.sort(byPosition) };
  }
  const issues = semanticIssues(result.output, issue);
  if (issues.length > 0) return { ok: false, issues: issues.sort(byPosition) };
  return { ok: true, graph: buildGraph(result.output) };
}

function byPosition(a: SourceIssue, b: SourceIssue): number {
  return a.line - b.line || a.column - b.column;
}

let defaultGraph: Graph | undefined;

/**
 * The default lifecycle graph shipped with the-loop. It is built from the shipped data without
 * the schema: a test compiles the same data through the schema and requires the identical
 * graph, so every run need not validate a constant (a run that reads no configuration file
 * otherwise spends most of its configuration time doing so).
 */
export function getDefaultGraph(): Graph {
  if (!defaultGraph) {
    const data = defaultGraphData() as GraphInput;
    // The schema's output lists a node's fields in the schema's order; so does this graph.
    const nodes = data.nodes.map((node) => Object.fromEntries(NODE_FIELDS.filter((key) => Object.hasOwn(node, key)).map((key) => [key, node[key as keyof typeof node]])));
    defaultGraph = buildGraph({ ...data, nodes: nodes as GraphInput['nodes'] });
  }
  return defaultGraph;
}

function buildGraph(input: GraphInput): Graph {
  const nodes: GraphNode[] = input.nodes.map((node) => ({
    ...node,
    gate: node.gate ?? [],
    alternatives: node.produces ? node.produces.split('|').map((name) => name.trim()).filter(Boolean) : [],
  }));
  return { start: input.start, nodes, edges: input.edges, byId: new Map(nodes.map((node) => [node.id, node])) };
}


// The parts of a graph that failed the schema but are still readable, index for index, so the
// structural checks can run too; an unreadable node or edge is left out (undefined).
type LenientGraph = { start: string | undefined; nodes: (GraphInput['nodes'][number] | undefined)[]; edges: (GraphInput['edges'][number] | undefined)[] };

function lenientGraph(value: unknown): LenientGraph {
  const record = isRecord(value) ? value : {};
  const list = (key: string): unknown[] => (Array.isArray(record[key]) ? (record[key] as unknown[]) : []);
  const strings = (item: unknown, keys: string[]): boolean => isRecord(item) && keys.every((k) => typeof item[k] === 'string');
  const arrays = (item: Record<string, unknown>): boolean => ['requires', 'choices', 'gate'].every((k) => item[k] === undefined || Array.isArray(item[k]));
  return {
    start: typeof record['start'] === 'string' ? record['start'] : undefined,
    nodes: list('nodes').map((n) => (strings(n, ['id']) && arrays(n as Record<string, unknown>) ? (n as GraphInput['nodes'][number]) : undefined)),
    edges: list('edges').map((e) => (strings(e, ['from', 'to', 'on']) ? (e as GraphInput['edges'][number]) : undefined)),
  };
}

function semanticIssues(graph: GraphInput | LenientGraph, issue: IssueAt): SourceIssue[] {
  const issues: SourceIssue[] = [];
  const ids = new Set<string>();
  graph.nodes.forEach((node, index) => {
    if (!node) return;
    if (ids.has(node.id)) issues.push(issue(['nodes', index, 'id'], `duplicate node id "${node.id}"`));
    ids.add(node.id);
  });
  const known = (id: string): boolean => ids.has(id);
  const options = (): string => [...ids].join(', ');
  if (graph.start !== undefined && !known(graph.start)) issues.push(issue(['start'], `start node "${graph.start}" is not declared (nodes: ${options()})`));
  graph.nodes.forEach((node, index) => {
    if (!node) return;
    node.requires?.forEach((id, j) => {
      if (!known(id)) issues.push(issue(['nodes', index, 'requires', j], `node "${node.id}" requires unknown node "${id}"`));
    });
    node.choices?.forEach((id, j) => {
      if (!known(id)) issues.push(issue(['nodes', index, 'choices', j], `node "${node.id}" offers unknown choice "${id}"`));
      // A choice selects among declared edges; it never creates one.
      else if (!graph.edges.some((e) => e?.from === node.id && e.to === id)) {
        issues.push(issue(['nodes', index, 'choices', j], `node "${node.id}" offers choice "${id}", but no edge from "${node.id}" leads there`));
      }
    });
    node.gate?.forEach((predicate, j) => {
      if (!isRecord(predicate)) return;
      const needsArtifact = Object.keys(predicate).some((key) => Object.hasOwn(PREDICATES, key) && PREDICATES[key as GatePredicateKind].readsProducedArtifact);
      if (needsArtifact && !node.produces) {
        issues.push(issue(['nodes', index, 'gate', j], `node "${node.id}" has a gate predicate that reads the produced artifact, but declares no \`produces\``));
      }
    });
    // A human node waits until a person acts, so its gate needs a predicate only a person can
    // satisfy; without one it would pass by itself (decision 110). `escalated` is entered only by
    // escalation and left only by `graph force`, so it needs none while no edge leads into it.
    if (node.actor === 'human' && !(node.gate ?? []).some(personOnly)) {
      const exempt = node.id === ESCALATED_NODE && !graph.edges.some((e) => e?.to === node.id);
      if (!exempt) {
        issues.push(
          issue(
            ['nodes', index, node.gate ? 'gate' : 'actor'],
            `human node "${node.id}" has no gate predicate only a person can satisfy, so it would pass by itself: add \`approved: <artifact>\` to its gate`,
          ),
        );
      }
    }
  });
  const routes = new Set<string>();
  graph.edges.forEach((edge, index) => {
    if (!edge) return;
    if (!known(edge.from)) issues.push(issue(['edges', index, 'from'], `edge from unknown node "${edge.from}" (nodes: ${options()})`));
    if (!known(edge.to)) issues.push(issue(['edges', index, 'to'], `edge to unknown node "${edge.to}" (nodes: ${options()})`));
    const route = `${edge.from}\u0000${edge.on}`;
    if (routes.has(route)) issues.push(issue(['edges', index, 'on'], `node "${edge.from}" already has an edge on "${edge.on}"`));
    routes.add(route);
  });
  issues.push(...forwardCycles(graph, issue));
  return issues;
}

// The walk follows `pass` and `skip` edges from the start; a cycle of them would end it early
// with every node on the cycle passing, and report ok. Loops are routed on other outcomes.
function forwardCycles(graph: GraphInput | LenientGraph, issue: IssueAt): SourceIssue[] {
  const forward = new Map<string, { to: string; index: number }[]>();
  graph.edges.forEach((edge, index) => {
    if (!edge || (edge.on !== 'pass' && edge.on !== 'skip')) return;
    forward.set(edge.from, [...(forward.get(edge.from) ?? []), { to: edge.to, index }]);
  });
  const issues: SourceIssue[] = [];
  // Depth-first without recursion: a configuration may chain thousands of nodes.
  const state = new Map<string, 'open' | 'done'>();
  for (const first of forward.keys()) {
    if (state.has(first)) continue;
    const path: string[] = [first];
    const next: number[] = [0];
    state.set(first, 'open');
    while (path.length > 0) {
      const id = path[path.length - 1] as string;
      const edges = forward.get(id) ?? [];
      const i = next[next.length - 1] as number;
      if (i >= edges.length) {
        state.set(id, 'done');
        path.pop();
        next.pop();
        continue;
      }
      next[next.length - 1] = i + 1;
      const { to, index } = edges[i] as { to: string; index: number };
      if (state.get(to) === 'open') {
        const cycle = [...path.slice(path.indexOf(to)), to].join(' → ');
        issues.push(issue(['edges', index, 'to'], `the pass and skip edges form a cycle (${cycle}), so the walk from the start would end there with the gate passing; route a loop on another outcome, such as changes-requested`));
      } else if (!state.has(to)) {
        state.set(to, 'open');
        path.push(to);
        next.push(0);
      }
    }
  }
  return issues;
}

function personOnly(predicate: unknown): boolean {
  return isRecord(predicate) && Object.keys(predicate).some((key) => Object.hasOwn(PREDICATES, key) && PREDICATES[key as GatePredicateKind].personOnly === true);
}

function schemaIssue(raw: v.BaseIssue<unknown>, root: unknown, issue: IssueAt): SourceIssue {
  const gateItem = gatePredicateIssue((raw.path ?? []).map((item) => item.key as PropertyKey), root);
  if (gateItem) return issue(gateItem.path, gateItem.message);
  return schemaIssues(GraphSchema, [raw], issue, { describe: (path) => describePath(path, root), hint: predicateOutsideGate })[0]!;
}

// `nodes.3.phase` names a node by its id: after `extends: default` the index is not the file's.
function describePath(path: readonly PropertyKey[], root: unknown): string {
  const [list, index, ...rest] = path;
  if ((list === 'nodes' || list === 'edges') && typeof index === 'number') {
    const entries = isRecord(root) && Array.isArray(root[list]) ? (root[list] as unknown[]) : [];
    const entry = entries[index];
    const id = isRecord(entry) ? (list === 'nodes' ? entry['id'] : entry['from']) : undefined;
    const name = typeof id === 'string' ? (list === 'nodes' ? `node "${id}"` : `edge from "${id}"`) : `${list}[${index}]`;
    return rest.length > 0 ? `${name} ${rest.join('.')}` : name;
  }
  return path.join('.');
}

// A failed union says "invalid type"; explain a gate item in the terms of its own key instead.
function gatePredicateIssue(path: readonly PropertyKey[], root: unknown): { path: PropertyKey[]; message: string } | undefined {
  const gateIndex = path.indexOf('gate');
  if (gateIndex !== 2 || path[0] !== 'nodes' || typeof path[3] !== 'number') return undefined;
  const itemPath = path.slice(0, 4);
  const item = itemPath.reduce<unknown>((acc, key) => (isRecord(acc) || Array.isArray(acc) ? (acc as Record<PropertyKey, unknown>)[key] : undefined), root);
  const known = Object.keys(GATE_PREDICATES);
  if (!isRecord(item)) return { path: itemPath, message: `a gate predicate must be a mapping with one key (${known.join(', ')})` };
  const keys = Object.keys(item);
  if (keys.length !== 1) return { path: itemPath, message: `a gate predicate has exactly one key; found ${keys.length} (${keys.join(', ') || 'none'})` };
  const key = keys[0] as string;
  if (!(key in GATE_PREDICATES)) {
    return { path: [...itemPath, key], message: `unknown gate predicate "${key}"${didYouMean(key, known)} — known: ${known.join(', ')}` };
  }
  const result = v.safeParse(GATE_PREDICATES[key as keyof typeof GATE_PREDICATES], item);
  if (result.success) return undefined;
  // The predicate's own problem, in its own terms: `gate predicate "reviewRounds": min: …`.
  const [detail] = schemaIssues(GATE_PREDICATES[key as keyof typeof GATE_PREDICATES], result.issues.slice(0, 1), (_path, message) => ({ file: '', line: 1, column: 1, message }), {
    describe: (path) => dottedPath(path.slice(1)),
  });
  const sub = (result.issues[0].path ?? []).map((p) => p.key as PropertyKey);
  return { path: [...itemPath, ...sub], message: `gate predicate "${key}": ${detail!.message}` };
}

// `sectons:` on a node is most likely a gate predicate written outside `gate:`.
function predicateOutsideGate(key: string, path: readonly PropertyKey[]): string | undefined {
  if (path.length !== 3 || path[0] !== 'nodes') return undefined;
  const hint = didYouMean(key, [...Object.keys(NodeSchema.entries), ...Object.keys(GATE_PREDICATES)]);
  const predicate = Object.keys(GATE_PREDICATES).find((name) => hint === ` (did you mean "${name}"?)`);
  return predicate ? ` (did you mean "${predicate}"? it is a gate predicate: list it under \`gate:\`)` : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
