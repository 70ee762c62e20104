import { compareText } from '../diagnostic.js';
import { parseJson } from '../json/parse-json.js';
import { parseJsonDocument } from '../json/parse-json-document.js';
import type { SourceIssue } from '../yaml/yaml-source.js';
import type { WorkItemInput } from '../gate/inputs.js';
import type { Graph } from '../graph/types.js';
import { GraphStateSchema, type GraphState, type NodeRecord } from './schema.js';

/** The node a work item enters when a person has to decide; every graph has it, declared or not. */
export const ESCALATED_NODE = 'escalated';

/** The graph-state file's name inside a work item's folder. */
export const GRAPH_STATE_FILE = 'graph-state.json';

/**
 * A graph state read, or why it cannot be used; `migration` says how to move on from a file
 * another tool or an earlier the-loop wrote, which no fix to a key would make valid.
 */
export type GraphStateResult = { ok: true; state: GraphState } | { ok: false; issues: SourceIssue[]; migration?: string };

/**
 * Parse a graph-state file. A file that is not valid JSON, does not match the schema or, given
 * the `graph`, points at a node the graph does not declare is an error naming the file and
 * line, never a silent reset to a fresh state.
 */
export function parseGraphState(file: string, text: string, expectedWorkItem?: string, graph?: Graph): GraphStateResult {
  const result = parseJsonDocument(file, text, GraphStateSchema);
  if (!result.ok) {
    // Only a file off the schema is looked at twice: is it someone else's altogether?
    const json = parseJson(text);
    return (json.ok ? foreignState(file, json.value) : undefined) ?? result;
  }
  const state = result.value;
  const issues: SourceIssue[] = [];
  if (expectedWorkItem !== undefined && state.workItem !== expectedWorkItem) {
    issues.push({ file, ...result.positionOf(['workItem']), message: `workItem is "${state.workItem}", but the file belongs to "${expectedWorkItem}"` });
  }
  if (graph !== undefined) {
    const declared = (node: string | null | undefined) => node === null || node === undefined || node === ESCALATED_NODE || graph.byId.has(node);
    const unknown = (path: readonly PropertyKey[], node: string) =>
      issues.push({ file, ...result.positionOf(path), message: `${path.join('.')} names "${node}", which is not a node of the graph (was the graph changed? \`the-loop graph force\` moves the pointer)` });
    if (!declared(state.currentNode)) unknown(['currentNode'], state.currentNode as string);
    if (state.parked && !declared(state.parked.node)) unknown(['parked', 'node'], state.parked.node);
    if (state.escalated && !declared(state.escalated.node)) unknown(['escalated', 'node'], state.escalated.node);
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, state };
}

// A file without this version's `schemaVersion` is not a broken state of ours: one short
// problem says what it is and how to move on, instead of every key the schema does not know.
function foreignState(file: string, value: unknown): GraphStateResult | undefined {
  const record = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  const version = record?.['schemaVersion'];
  if (version === 1) return undefined;
  const at = { file, line: 1, column: 1 };
  if (typeof version === 'number' && version > 1) {
    return { ok: false, issues: [{ ...at, message: `written by a newer the-loop (schemaVersion ${version}); this one reads schemaVersion 1` }], migration: 'Upgrade the-loop to the version that wrote it.' };
  }
  const keys = record ? Object.keys(record) : [];
  const shown = keys.length === 0 ? '' : ` (keys: ${keys.slice(0, 5).join(', ')}${keys.length > 5 ? ', …' : ''})`;
  const what = record ? `a JSON object without "schemaVersion": 1${shown}` : `JSON ${Array.isArray(value) ? 'list' : 'value'}, not an object`;
  return {
    ok: false,
    issues: [{ ...at, message: `not a graph state of this the-loop: ${what} — an earlier the-loop's or another tool's record` }],
    migration: `Move it aside (git mv ${file} ${file.replace(/\.json$/, '.legacy.json')}): without it the-loop derives the current node from the artifacts; give its approvals again (\`the-loop graph approve\`, or a pull-request review under approvals.source: github).`,
  };
}

/**
 * What graph state gives a gate evaluation: the approvals and opt-ins it records, the node it
 * points at (left out with `recompute`, which derives everything from the artifacts), or why it
 * cannot be used. `undefined` is a work item with no graph state yet.
 */
export function graphStateInput(read: GraphStateResult | undefined, options: { recompute?: boolean } = {}): Pick<WorkItemInput, 'approvals' | 'selectedOptIns' | 'recordedNode' | 'graphStateIssues' | 'graphStateMigration'> {
  if (read === undefined) return { approvals: [], selectedOptIns: [] };
  if (!read.ok) return { approvals: [], selectedOptIns: [], graphStateIssues: read.issues, ...(read.migration !== undefined ? { graphStateMigration: read.migration } : {}) };
  const { state } = read;
  return { approvals: state.approvals, selectedOptIns: state.selectedOptIns, ...(options.recompute ? {} : { recordedNode: state.currentNode }) };
}

/** Serialise a state the way it is checked in: stable key order, two-space indent, final newline. */
export function serializeGraphState(state: GraphState): string {
  const nodes = Object.fromEntries(Object.entries(state.nodes).sort(([a], [b]) => compareText(a, b)));
  return `${JSON.stringify({ ...state, nodes }, null, 2)}\n`;
}

/** A work item that has not entered the graph yet. */
export function emptyGraphState(workItem: string): GraphState {
  return {
    schemaVersion: 1,
    workItem,
    currentNode: null,
    nodes: {},
    parked: null,
    escalated: null,
    approvals: [],
    decisions: [],
    forced: [],
    selectedOptIns: [],
  };
}

/** A node's record, or the record of a node never visited. */
export function nodeRecord(state: GraphState, node: string): NodeRecord {
  return state.nodes[node] ?? { attempts: 0, outcome: null, enteredAt: null, exitedAt: null, lastFindingsDigest: null };
}
