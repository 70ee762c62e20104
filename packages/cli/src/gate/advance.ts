import { ESCALATED_NODE, formatLocation, transition, type GraphState, type TransitionResult } from '@the-loop/core';
import { UsageError } from '../errors.js';
import { commitTransitions, type CommitEnv, type Committed, type Decision, type Gate } from '../state/commit-transitions.js';
import { statePathOf } from '../state/graph-state-store.js';
import type { Repo } from '../workspace/repo.js';
import { evaluateNodeFromDisk, type EvaluateOptions } from './evaluate.js';

export interface StepOptions {
  readonly outcome?: string | undefined;
  readonly choice?: string | undefined;
  readonly to?: string | undefined;
  /** `graph complete --node`: the node the caller claims is done. */
  readonly claim?: string | undefined;
  /**
   * Whether an unmet gate at the recorded node is recorded (an attempt, or parking on a person).
   * `graph advance` and `complete` record it; catching the pointer up after another act does not.
   */
  readonly recordUnmet: boolean;
  readonly evaluate?: EvaluateOptions;
}

/**
 * Evaluate the recorded node and take its edge; keep going while later gates already pass, so
 * one call catches the pointer up with the artifacts. Only the first gate evaluated may record
 * an unmet attempt: entering a node is not a failed try at it. Each gate reads the state being
 * built, so an approval just recorded counts.
 */
export async function step(repo: Repo, id: string, state: GraphState, now: string, options: StepOptions): Promise<Decision> {
  const graph = repo.config.graph;
  const results: TransitionResult[] = [];
  let gate: Gate | undefined;
  const first = state.currentNode;
  if (first === null) throw new UsageError(`${id} has already left the graph; use \`graph force\` to reopen it`);
  if (first === ESCALATED_NODE) {
    throw new UsageError(`${id} is escalated (${state.escalated?.reason ?? 'see graph status'}); a person resolves it with \`the-loop graph force ${id} --to <node> --reason <why>\``);
  }
  if (options.claim !== undefined && options.claim !== first) {
    throw new UsageError(`the claim is for "${options.claim}", but ${id} is at "${first}" (${statePathOf(repo, id)})`);
  }
  if (options.outcome !== undefined) {
    results.push(transition(graph, state, { node: first, outcome: options.outcome, choice: options.choice, to: options.to }, now));
    return { results };
  }
  let current: GraphState = state;
  for (let i = 0; i <= graph.nodes.length && current.currentNode !== null && current.currentNode !== ESCALATED_NODE; i += 1) {
    const node = current.currentNode;
    const verdict = await evaluateNodeFromDisk(repo, id, node, { ...options.evaluate, state: current });
    const passing = verdict.outcome === 'pass' || verdict.outcome === 'skip';
    gate = { node, outcome: verdict.outcome, findings: verdict.findings, stalled: i === 0 && !passing };
    if (!passing && (i > 0 || !options.recordUnmet)) break;
    const result = transition(
      graph,
      current,
      {
        node,
        outcome: verdict.outcome,
        findingsDigest: verdict.digest,
        findings: verdict.findings.map((d) => `${formatLocation(d)}  ${d.ruleId}  ${d.message}`),
        ...(i === 0 ? { choice: options.choice, to: options.to } : {}),
      },
      now,
    );
    results.push(result);
    if (!result.ok || !passing) break;
    current = result.state;
  }
  return gate ? { results, gate } : { results };
}

/**
 * Move a work item's recorded pointer along the edges whose gates already pass, recording no
 * unmet attempt: what the Stop hook and `graph …` do after they act. Entering a node may write
 * what its own gate reads (the default `complete` node writes the log's phase), so the pointer
 * is moved again while it moves, once per node at most. A work item with no graph state,
 * escalated or out of the graph is left alone; undefined when nothing moved.
 */
export async function catchUp(repo: Repo, id: string, env: CommitEnv, evaluate: EvaluateOptions = {}): Promise<Committed | undefined> {
  let moved: Committed | undefined;
  for (let i = 0; i < repo.config.graph.nodes.length; i += 1) {
    const applied = await commitTransitions(
      repo,
      id,
      env,
      'catch-up',
      async (state, now) => (state.currentNode === null || state.currentNode === ESCALATED_NODE ? { results: [] } : step(repo, id, state, now, { recordUnmet: false, evaluate })),
      { withoutState: 'leave' },
    );
    if (!applied || applied.taken.length === 0) break;
    moved = moved === undefined ? applied : followedBy(moved, applied);
  }
  return moved;
}

/** One commit followed by another, as one: from the first's node to the second's state. */
export function followedBy(first: Committed, then: Committed): Committed {
  return {
    from: first.from,
    state: then.state,
    effects: [...first.effects, ...then.effects],
    reports: [...first.reports, ...then.reports],
    taken: [...first.taken, ...then.taken],
    gate: then.gate ?? first.gate,
  };
}
