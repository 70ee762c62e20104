import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileGraph, getDefaultGraph } from '../graph/compile-graph.js';
import type { Graph } from '../graph/types.js';
import { parseGraphState, serializeGraphState } from './graph-state.js';
import type { GraphState } from './schema.js';
import { ESCALATED_NODE } from './graph-state.js';
import { DEFAULT_MAX_ATTEMPTS, forceTransition, startGraph, transition, type Verdict } from './transition.js';

const T0 = '2026-01-01T00:00:00.000Z';
const at = (n: number): string => new Date(Date.parse(T0) + n * 1000).toISOString();

function compile(yaml: string): Graph {
  const result = compileGraph('graph.yaml', yaml);
  if (!result.ok) throw new Error(result.issues.map((i) => `${i.line}:${i.column} ${i.message}`).join('\n'));
  return result.graph;
}

const REVIEW_GRAPH = compile(`
start: write
nodes:
  - {id: write, phase: build, actor: agent, maxAttempts: 2, notify: {onGateFail: [lead], onEscalate: [lead]}}
  - {id: review, phase: review, actor: agent, choices: [ship, fix]}
  - {id: fix, phase: build, actor: agent}
  - {id: ship, phase: done, actor: human, gate: [{approved: release.md}], notify: {onAwaitHuman: [approver], onExitGraph: [lead]}}
  - {id: escalated, phase: review, actor: human}
edges:
  - {from: write, to: review, on: pass}
  - {from: review, to: fix, on: findings}
  - {from: review, to: ship, on: pass}
  - {from: fix, to: review, on: pass}
`);

const start = (graph: Graph): GraphState => startGraph(graph, 'issue-1', T0).state;

function apply(graph: Graph, state: GraphState, verdict: Omit<Verdict, 'node'>, n = 1): GraphState {
  const result = transition(graph, state, { node: state.currentNode!, ...verdict }, at(n));
  if (!result.ok) throw new Error(result.reason);
  return result.state;
}

describe('transition', () => {
  it('walks a review → fix → review cycle along declared edges', () => {
    let state = apply(REVIEW_GRAPH, start(REVIEW_GRAPH), { outcome: 'pass' });
    expect(state.currentNode).toBe('review');
    state = apply(REVIEW_GRAPH, state, { outcome: 'findings' }, 2);
    expect(state.currentNode).toBe('fix');
    state = apply(REVIEW_GRAPH, state, { outcome: 'pass' }, 3);
    expect(state.currentNode).toBe('review');
    expect(state.nodes['review']).toMatchObject({ enteredAt: at(3), exitedAt: null });
  });

  it('refuses an undeclared transition and names the declared options', () => {
    const state = apply(REVIEW_GRAPH, start(REVIEW_GRAPH), { outcome: 'pass' });
    const result = transition(REVIEW_GRAPH, state, { node: 'review', outcome: 'pass', to: 'write' }, at(2));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toContain('review → write is not declared');
    expect(result.options).toEqual(['findings → fix', 'pass → ship']);
    const unknown = transition(REVIEW_GRAPH, state, { node: 'review', outcome: 'rejected' }, at(2));
    expect(unknown.ok).toBe(false);
    if (!unknown.ok) expect(unknown.reason).toContain('no declared edge on "rejected" (declared: findings → fix, pass → ship)');
  });

  it('refuses a verdict about a node other than the current one', () => {
    const result = transition(REVIEW_GRAPH, start(REVIEW_GRAPH), { node: 'review', outcome: 'pass' }, at(1));
    expect(result.ok).toBe(false);
  });

  it('takes a declared choice and logs a fallback for anything else', () => {
    const atReview = apply(REVIEW_GRAPH, start(REVIEW_GRAPH), { outcome: 'pass' });
    const chosen = transition(REVIEW_GRAPH, atReview, { node: 'review', outcome: 'pass', choice: 'fix', choiceReason: 'two findings are open' }, at(2));
    expect(chosen.ok && chosen.state.currentNode).toBe('fix');
    expect(chosen.ok && chosen.state.decisions).toEqual([{ node: 'review', requested: 'fix', taken: 'fix', via: 'choice', reason: 'two findings are open', at: at(2) }]);
    const bogus = transition(REVIEW_GRAPH, atReview, { node: 'review', outcome: 'pass', choice: 'write' }, at(2));
    expect(bogus.ok && bogus.state.currentNode).toBe('ship');
    expect(bogus.ok && bogus.state.decisions[0]).toMatchObject({ requested: 'write', taken: 'ship', via: 'fallback', reason: 'choice "write" is not one of ship, fix' });
    const unreadable = transition(REVIEW_GRAPH, atReview, { node: 'review', outcome: 'pass', choiceReason: 'the answer was not JSON' }, at(2));
    expect(unreadable.ok && unreadable.state.decisions[0]).toMatchObject({ requested: null, taken: 'ship', via: 'fallback', reason: 'no choice was made at "review": the answer was not JSON' });
    expect(bogus.ok && bogus.effects.find((e) => e.kind === 'log')).toMatchObject({ message: expect.stringContaining('choice "write" is not one of ship, fix') });
  });

  it('escalates after maxAttempts unmet gates and persists the escalated node', () => {
    let state = start(REVIEW_GRAPH);
    const first = transition(REVIEW_GRAPH, state, { node: 'write', outcome: 'block', findingsDigest: 'a', findings: ['design.md:3:1  section-empty  …'] }, at(1));
    expect(first.ok && first.state.currentNode).toBe('write');
    expect(first.ok && first.effects.map((e) => e.kind)).toEqual(['notify', 'assignment']);
    expect(first.ok && first.effects[1]).toMatchObject({ text: expect.stringContaining('section-empty') });
    state = first.ok ? first.state : state;
    const tried = ['attempt 1: claude exited 0; 1 finding unmet', 'attempt 2: claude timed out after 60 s'];
    const second = transition(REVIEW_GRAPH, state, { node: 'write', outcome: 'block', findingsDigest: 'b', findings: ['design.md:3:1  section-empty  …'], tried }, at(2));
    expect(second.ok).toBe(true);
    if (!second.ok) return;
    expect(second.state.currentNode).toBe(ESCALATED_NODE);
    expect(second.effects.find((e) => e.kind === 'record-conflict')).toEqual({
      kind: 'record-conflict',
      event: 'onEscalate',
      node: 'write',
      entry: { at: at(2), node: 'write', attempts: 2, reason: '2 unmet attempts at "write" (maxAttempts 2)', findings: ['design.md:3:1  section-empty  …'], tried },
    });
    expect(second.state.escalated).toEqual({ node: 'write', reason: '2 unmet attempts at "write" (maxAttempts 2)', at: at(2) });
    expect(second.effects.filter((e) => e.kind === 'notify').map((e) => e.event)).toEqual(['onGateFail', 'onEscalate', 'onAwaitHuman']);
    const json = parseGraphState('graph-state.json', serializeGraphState(second.state));
    expect(json.ok && json.state.currentNode).toBe(ESCALATED_NODE);
    const stuck = transition(REVIEW_GRAPH, second.state, { node: ESCALATED_NODE, outcome: 'pass' }, at(3));
    expect(stuck.ok).toBe(false);
  });

  it('escalates when the same findings come back twice running', () => {
    const graph = getDefaultGraph();
    const forced = forceTransition(graph, start(graph), 'implementation', 'test', null, T0);
    let state = forced.ok ? forced.state : start(graph);
    state = apply(graph, state, { outcome: 'block', findingsDigest: 'same' });
    expect(state.currentNode).toBe('implementation');
    state = apply(graph, state, { outcome: 'block', findingsDigest: 'same' }, 2);
    expect(state.currentNode).toBe(ESCALATED_NODE);
    expect(state.escalated?.reason).toContain('same findings twice running');
  });

  it('parks on a human node once and leaves the graph after its last node', () => {
    let state = apply(REVIEW_GRAPH, start(REVIEW_GRAPH), { outcome: 'pass' });
    const toShip = transition(REVIEW_GRAPH, state, { node: 'review', outcome: 'pass', choice: 'ship' }, at(2));
    expect(toShip.ok && toShip.state.parked).toEqual({ node: 'ship', reason: 'waiting on a person', since: at(2) });
    expect(toShip.ok && toShip.effects.filter((e) => e.kind === 'notify').map((e) => [e.event, e.roles])).toEqual([['onAwaitHuman', ['approver']]]);
    state = toShip.ok ? toShip.state : state;
    const waiting = transition(REVIEW_GRAPH, state, { node: 'ship', outcome: 'wait' }, at(3));
    expect(waiting.ok && waiting.effects).toEqual([]);
    const done = transition(REVIEW_GRAPH, state, { node: 'ship', outcome: 'pass' }, at(4));
    expect(done.ok && done.state.currentNode).toBeNull();
    expect(done.ok && done.effects.map((e) => `${e.kind}:${e.event}`)).toEqual(['log-transition:onExitGraph', 'notify:onExitGraph']);
  });

  it('force moves the pointer with an audit record but never an approval or verdict', () => {
    const state = start(REVIEW_GRAPH);
    const forced = forceTransition(REVIEW_GRAPH, state, 'ship', 'hotfix agreed in standup', 'alice', at(5));
    expect(forced.ok).toBe(true);
    if (!forced.ok) return;
    expect(forced.state.forced).toEqual([{ from: 'write', to: 'ship', reason: 'hotfix agreed in standup', by: 'alice', at: at(5) }]);
    expect(forced.state.approvals).toEqual([]);
    expect(forced.state.nodes['write']?.outcome).toBeNull();
    expect(forced.effects.find((e) => e.kind === 'log-transition')).toMatchObject({ row: { outcome: 'forced', note: 'forced: hotfix agreed in standup' } });
    expect(forceTransition(REVIEW_GRAPH, state, 'nowhere', 'x', null, at(5)).ok).toBe(false);
  });

  it('sets the phase label and the log phase only when the phase changes', () => {
    const result = transition(REVIEW_GRAPH, start(REVIEW_GRAPH), { node: 'write', outcome: 'pass' }, at(1));
    expect(result.ok && result.effects.filter((e) => e.kind === 'set-label')).toEqual([{ kind: 'set-label', event: 'onEnter', node: 'review', label: 'loop:review' }]);
    const fix = REVIEW_GRAPH.edges.find((e) => e.from === 'review' && e.on === 'findings');
    expect(fix?.to).toBe('fix');
  });
});

describe('transition properties', () => {
  const graphs = [getDefaultGraph(), REVIEW_GRAPH];
  const verdictArb = (graph: Graph) =>
    fc.record({
      outcome: fc.constantFrom('pass', 'skip', 'block', 'wait', 'findings', 'changes-requested', 'fail', 'bogus'),
      digest: fc.constantFrom(undefined, 'a', 'b', 'c'),
      choice: fc.option(fc.constantFrom(...graph.nodes.map((n) => n.id), 'nope'), { nil: undefined }),
      to: fc.option(fc.constantFrom(...graph.nodes.map((n) => n.id)), { nil: undefined, freq: 4 }),
      force: fc.option(fc.constantFrom(...graph.nodes.map((n) => n.id)), { nil: undefined, freq: 10 }),
    });

  for (const graph of graphs) {
    it(`never takes an undeclared edge, never lowers attempts, and survives JSON (${graph.start})`, () => {
      fc.assert(
        fc.property(fc.array(verdictArb(graph), { maxLength: 60 }), (verdicts) => {
          let state = start(graph);
          verdicts.forEach((v, i) => {
            if (state.currentNode === null) return;
            const result = v.force
              ? forceTransition(graph, state, v.force, 'property test', null, at(i))
              : transition(graph, state, { node: state.currentNode, outcome: v.outcome, findingsDigest: v.digest, choice: v.choice, to: v.to }, at(i));
            if (!result.ok) return;
            const { taken } = result;
            if (taken && taken.to !== null && taken.on !== 'forced') {
              const declared = graph.edges.some((e) => e.from === taken.from && e.to === taken.to && e.on === taken.on);
              expect(declared || (taken.on === 'escalate' && taken.to === ESCALATED_NODE)).toBe(true);
            }
            for (const [node, record] of Object.entries(state.nodes)) {
              expect(result.state.nodes[node]!.attempts).toBeGreaterThanOrEqual(record.attempts);
            }
            if (result.state.currentNode !== null) expect(graph.byId.has(result.state.currentNode)).toBe(true);
            state = result.state;
          });
          const round = parseGraphState('graph-state.json', serializeGraphState(state), 'issue-1');
          expect(round.ok && round.state).toEqual(state);
        }),
        { numRuns: 300 },
      );
    });
  }

  it('reaches escalation within maxAttempts unmet verdicts, whatever the digests', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.array(fc.string({ maxLength: 3 }), { minLength: 8, maxLength: 8 }), (max, digests) => {
        const graph = compile(`
start: a
nodes:
  - {id: a, phase: p, actor: agent, maxAttempts: ${max}}
  - {id: b, phase: p, actor: agent}
  - {id: escalated, phase: p, actor: human}
edges:
  - {from: a, to: b, on: pass}
`);
        let state = start(graph);
        for (let i = 0; i < max; i += 1) {
          state = apply(graph, state, { outcome: 'block', findingsDigest: digests[i] }, i);
          if (state.currentNode === ESCALATED_NODE) break;
        }
        expect(state.currentNode).toBe(ESCALATED_NODE);
        expect(state.nodes['a']!.attempts).toBeLessThanOrEqual(max);
      }),
    );
  });

  it('uses a default limit for nodes that declare none', () => {
    const graph = compile(`
start: a
nodes:
  - {id: a, phase: p, actor: agent}
edges: []
`);
    let state = start(graph);
    for (let i = 0; i < DEFAULT_MAX_ATTEMPTS; i += 1) state = apply(graph, state, { outcome: 'block', findingsDigest: String(i) }, i);
    // No escalated node declared: the escalation is still recorded and the item parked.
    expect(state.escalated?.node).toBe('a');
    expect(state.parked?.reason).toContain('escalated');
  });
});
