import type { Edge, Graph, GraphNode } from '../graph/types.js';
import type { Effect, LifecycleEvent } from './effects.js';
import { renderAssignment } from './assignment.js';
import { emptyGraphState, ESCALATED_NODE, nodeRecord } from './graph-state.js';
import type { GraphState, NodeRecord } from './schema.js';

/** Attempts a node gets when it declares no `maxAttempts`. */
export const DEFAULT_MAX_ATTEMPTS = 5;

/** A gate verdict (or a named routing outcome) for the current node. */
export interface Verdict {
  /** The node the verdict is about; it must be the recorded current node. */
  readonly node: string;
  /** `pass`, `skip`, `block` (gate unmet), `wait` (on a human), or a named outcome such as `changes-requested`. */
  readonly outcome: string;
  /** A digest of the findings; the same digest twice running at one node escalates. */
  readonly findingsDigest?: string | undefined;
  /** One line per unmet finding, named in the re-dispatched assignment. */
  readonly findings?: readonly string[] | undefined;
  /** An agent's structured choice among the node's declared `choices`. */
  readonly choice?: string | undefined;
  /** The agent's stated reason for its choice, or why no usable choice came back; kept in `decisions`. */
  readonly choiceReason?: string | undefined;
  /** What was tried at the node (an orchestrated run's attempts), for `conflicts.md` if the verdict escalates. */
  readonly tried?: readonly string[] | undefined;
  /** A target the caller asks for; refused unless a declared edge for this outcome leads there. */
  readonly to?: string | undefined;
}

/** Where a transition went: the edge taken, or `null` when the work item stayed. */
export interface Taken {
  readonly from: string;
  readonly to: string | null;
  readonly on: string;
}

export type TransitionResult =
  | { readonly ok: true; readonly state: GraphState; readonly effects: readonly Effect[]; readonly taken: Taken | null }
  | { readonly ok: false; readonly reason: string; readonly options: readonly string[] };

/** Enter the graph at its start node. */
export function startGraph(graph: Graph, workItem: string, now: string): { state: GraphState; effects: Effect[] } {
  const effects: Effect[] = [];
  const state = enter(graph, emptyGraphState(workItem), graph.start, null, 'start', '', now, effects);
  return { state, effects };
}

/**
 * Apply a verdict to the recorded current node. Pure. Only declared edges are taken; an
 * unmet gate counts an attempt, and too many attempts or the same findings twice running
 * enter the `escalated` node, which is persisted like any other node.
 */
export function transition(graph: Graph, state: GraphState, verdict: Verdict, now: string): TransitionResult {
  const current = state.currentNode;
  if (current === null) return refuse('the work item has already left the graph', []);
  if (verdict.node !== current) return refuse(`the verdict is for "${verdict.node}", but the work item is at "${current}"`, [current]);
  const node = graph.byId.get(current);
  if (!node) return refuse(`graph state names node "${current}", which the graph does not declare`, graph.nodes.map((n) => n.id));
  const outgoing = graph.edges.filter((e) => e.from === current);
  if (current === ESCALATED_NODE) {
    return refuse(`the work item is escalated: a person resolves it with \`the-loop graph force ${state.workItem} --to <node> --reason <why>\``, []);
  }
  const effects: Effect[] = [];
  const record = nodeRecord(state, current);

  if (verdict.outcome === 'block') {
    if (verdict.to !== undefined) return refuse(`the gate of "${current}" is unmet, so no edge can be taken`, describe(outgoing));
    const attempts = record.attempts + 1;
    const repeated = verdict.findingsDigest !== undefined && verdict.findingsDigest === record.lastFindingsDigest;
    const limit = node.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    const updated = withRecord(state, current, { ...record, attempts, outcome: 'block', lastFindingsDigest: verdict.findingsDigest ?? null });
    fire(effects, 'onGateFail', node, `${state.workItem}: the gate of ${current} is unmet (attempt ${attempts} of ${limit})`);
    if (repeated || attempts >= limit) {
      const reason = repeated ? `the same findings twice running at "${current}"` : `${attempts} unmet attempts at "${current}" (maxAttempts ${limit})`;
      const result = escalate(graph, updated, node, reason, { findings: verdict.findings ?? [], tried: verdict.tried ?? [] }, now, effects);
      return { ok: true, ...result, taken: { from: current, to: result.state.currentNode === current ? null : ESCALATED_NODE, on: 'escalate' } };
    }
    effects.push({ kind: 'assignment', event: 'onGateFail', node: current, text: renderAssignment({ node, workItem: state.workItem, unmet: verdict.findings ?? [] }) });
    return { ok: true, state: { ...updated, parked: null }, effects, taken: null };
  }

  if (verdict.outcome === 'wait') {
    if (verdict.to !== undefined) return refuse(`"${current}" waits on a person, so no edge can be taken`, describe(outgoing));
    const alreadyParked = state.parked?.node === current;
    const updated = withRecord(state, current, { ...record, outcome: 'wait' });
    if (!alreadyParked) awaitHuman(effects, node, state.workItem);
    return {
      ok: true,
      state: { ...updated, parked: alreadyParked ? state.parked : { node: current, reason: 'waiting on a person', since: now } },
      effects,
      taken: null,
    };
  }

  const staticEdge = outgoing.find((e) => e.on === verdict.outcome) ?? (verdict.outcome === 'skip' ? outgoing.find((e) => e.on === 'pass') : undefined);
  let edge: Edge | undefined = staticEdge;
  let decisions = state.decisions;
  if (verdict.choice !== undefined || (node.choices && node.choices.length > 0 && verdict.outcome === 'pass')) {
    const requested = verdict.choice ?? null;
    const chosen = requested !== null && node.choices?.includes(requested) ? outgoing.find((e) => e.to === requested) : undefined;
    let fallbackWhy: string | undefined;
    if (chosen) edge = chosen;
    else if (requested !== null || node.choices?.length) {
      const why =
        requested === null
          ? `no choice was made at "${current}"`
          : node.choices?.length
            ? `choice "${requested}" is not one of ${node.choices.join(', ')}`
            : `"${current}" declares no choices, so choice "${requested}" was ignored`;
      effects.push({ kind: 'log', event: 'onExit', node: current, message: `${why}${verdict.choiceReason ? ` (${verdict.choiceReason})` : ''}; taking the static ${verdict.outcome} edge${staticEdge ? ` to "${staticEdge.to}"` : ''}` });
      fallbackWhy = verdict.choiceReason ? `${why}: ${verdict.choiceReason}` : why;
    }
    if (edge) {
      const reason = chosen ? verdict.choiceReason : fallbackWhy;
      decisions = [...decisions, { node: current, requested, taken: edge.to, via: chosen ? 'choice' : 'fallback', ...(reason ? { reason } : {}), at: now }];
    }
  }
  if (verdict.to !== undefined && edge?.to !== verdict.to) {
    const declared = outgoing.filter((e) => e.to === verdict.to);
    const why = declared.length > 0 ? `the edge to "${verdict.to}" is declared on ${declared.map((e) => `"${e.on}"`).join(', ')}, not on "${verdict.outcome}"` : `no edge from "${current}" leads to "${verdict.to}"`;
    return refuse(`transition ${current} → ${verdict.to} is not declared: ${why}`, describe(outgoing));
  }
  const passing = verdict.outcome === 'pass' || verdict.outcome === 'skip';
  if (!edge) {
    if (passing && outgoing.length === 0) {
      const exited = withRecord(state, current, { ...record, outcome: verdict.outcome, exitedAt: now });
      fire(effects, 'onExit', node, `${state.workItem}: ${current} is done`);
      effects.push({ kind: 'log-transition', event: 'onExitGraph', node: current, row: { at: now, from: current, to: '(done)', outcome: verdict.outcome, note: 'left the graph' } });
      fire(effects, 'onExitGraph', node, `${state.workItem}: the lifecycle is complete`);
      return { ok: true, state: { ...exited, currentNode: null, parked: null, decisions }, effects, taken: { from: current, to: null, on: verdict.outcome } };
    }
    return refuse(`"${current}" has no declared edge on "${verdict.outcome}"`, describe(outgoing));
  }
  const exited = withRecord({ ...state, decisions }, current, { ...record, outcome: verdict.outcome, exitedAt: now });
  fire(effects, 'onExit', node, `${state.workItem}: ${current} → ${edge.to} (${edge.on})`);
  const note = decisions !== state.decisions ? `via ${decisions[decisions.length - 1]!.via}` : '';
  const next = enter(graph, exited, edge.to, node, edge.on, note, now, effects);
  return { ok: true, state: next, effects, taken: { from: current, to: edge.to, on: edge.on } };
}

/**
 * Escalate a work item at `nodeId` for a reason found outside a transition — a harness stop
 * hook that saw the same findings too many turns running. Pure; persisted like any escalation.
 */
export function escalateAt(graph: Graph, state: GraphState, nodeId: string, reason: string, now: string, details: EscalationDetails = NO_DETAILS): TransitionResult {
  const node = graph.byId.get(nodeId);
  if (!node) return refuse(`node "${nodeId}" is not declared in the graph`, graph.nodes.map((n) => n.id));
  if (state.escalated) return refuse(`the work item is already escalated at "${state.escalated.node}"`, []);
  const effects: Effect[] = [];
  const result = escalate(graph, { ...state, currentNode: nodeId }, node, reason, details, now, effects);
  return { ok: true, ...result, taken: { from: nodeId, to: result.state.currentNode === nodeId ? null : ESCALATED_NODE, on: 'escalate' } };
}

/** Move the pointer to any declared node, audited; never records a verdict or an approval. */
export function forceTransition(graph: Graph, state: GraphState, to: string, reason: string, by: string | null, now: string): TransitionResult {
  const target = graph.byId.get(to);
  if (!target) return refuse(`node "${to}" is not declared in the graph`, graph.nodes.map((n) => n.id));
  if (reason.trim() === '') return refuse('a forced move needs a reason', []);
  const from = state.currentNode;
  const effects: Effect[] = [];
  const fromNode = from === null ? undefined : graph.byId.get(from);
  let base: GraphState = { ...state, forced: [...state.forced, { from, to, reason, by, at: now }], escalated: null };
  if (from !== null) {
    base = withRecord(base, from, { ...nodeRecord(state, from), exitedAt: now });
    if (fromNode) fire(effects, 'onExit', fromNode, `${state.workItem}: ${from} → ${to} (forced: ${reason})`);
  }
  const next = enter(graph, base, to, fromNode ?? null, 'forced', `forced: ${reason}`, now, effects);
  return { ok: true, state: next, effects, taken: { from: from ?? '(none)', to, on: 'forced' } };
}

function enter(graph: Graph, state: GraphState, id: string, from: GraphNode | null, on: string, note: string, now: string, effects: Effect[]): GraphState {
  const node = graph.byId.get(id)!;
  const record = nodeRecord(state, id);
  const entered = withRecord({ ...state, currentNode: id, parked: null }, id, { ...record, outcome: null, enteredAt: now, exitedAt: null, lastFindingsDigest: null });
  effects.push({ kind: 'log-transition', event: 'onEnter', node: id, row: { at: now, from: from?.id ?? '(start)', to: id, outcome: on, note } });
  if (from?.phase !== node.phase) {
    effects.push({ kind: 'set-label', event: 'onEnter', node: id, label: `loop:${node.phase}` });
    effects.push({ kind: 'set-log-phase', event: 'onEnter', node: id, phase: node.phase });
  }
  fire(effects, 'onEnter', node, `${state.workItem}: entered ${id}`);
  if (node.actor === 'human') {
    awaitHuman(effects, node, state.workItem);
    return { ...entered, parked: { node: id, reason: 'waiting on a person', since: now } };
  }
  if (node.actor === 'agent' && id !== ESCALATED_NODE) effects.push({ kind: 'assignment', event: 'onEnter', node: id, text: renderAssignment({ node, workItem: state.workItem, unmet: [] }) });
  return entered;
}

/** What an escalation's `conflicts.md` entry lists besides the reason. */
export interface EscalationDetails {
  readonly findings: readonly string[];
  readonly tried: readonly string[];
}

const NO_DETAILS: EscalationDetails = { findings: [], tried: [] };

function escalate(graph: Graph, state: GraphState, node: GraphNode, reason: string, details: EscalationDetails, now: string, effects: Effect[]): { state: GraphState; effects: Effect[] } {
  const escalated = { node: node.id, reason, at: now };
  effects.push({ kind: 'log', event: 'onEscalate', node: node.id, message: `escalated: ${reason}` });
  const attempts = nodeRecord(state, node.id).attempts;
  effects.push({ kind: 'record-conflict', event: 'onEscalate', node: node.id, entry: { at: now, node: node.id, attempts, reason, ...details } });
  fire(effects, 'onEscalate', node, `${state.workItem}: escalated — ${reason}`);
  if (!graph.byId.has(ESCALATED_NODE)) {
    return { state: { ...state, escalated, parked: { node: node.id, reason: `escalated: ${reason}`, since: now } }, effects };
  }
  const exited = withRecord({ ...state, escalated }, node.id, { ...nodeRecord(state, node.id), exitedAt: now });
  fire(effects, 'onExit', node, `${state.workItem}: ${node.id} → ${ESCALATED_NODE}`);
  return { state: enter(graph, exited, ESCALATED_NODE, node, 'escalate', reason, now, effects), effects };
}

function awaitHuman(effects: Effect[], node: GraphNode, workItem: string): void {
  const roles = node.notify?.onAwaitHuman ?? [];
  effects.push({ kind: 'notify', event: 'onAwaitHuman', node: node.id, roles, message: `${workItem}: ${node.id} waits on a person` });
}

// Notify the roles a node declares for an event; a node that declares none notifies nobody.
function fire(effects: Effect[], event: LifecycleEvent, node: GraphNode, message: string): void {
  const roles = node.notify?.[event];
  if (roles && roles.length > 0) effects.push({ kind: 'notify', event, node: node.id, roles, message });
}

function withRecord(state: GraphState, node: string, record: NodeRecord): GraphState {
  return { ...state, nodes: { ...state.nodes, [node]: record } };
}

function describe(edges: readonly Edge[]): string[] {
  return edges.map((e) => `${e.on} → ${e.to}`);
}

function refuse(reason: string, options: readonly string[]): TransitionResult {
  return { ok: false, reason: options.length > 0 ? `${reason} (declared: ${options.join(', ')})` : reason, options };
}
