import { ESCALATED_NODE, formatLocation, startGraph, transition, type Diagnostic, type Effect, type GraphState, type Taken, type TransitionResult } from '@the-loop/core';
import { UsageError } from '../errors.js';
import { runExternalEffects, runFileEffects, type EffectContext, type EffectReport } from '../effects/run-effects.js';
import { loadGraphState, saveGraphState, statePathOf, withStateLock } from '../state/graph-state-store.js';
import { loadCollaborators } from '../workspace/collaborators.js';
import type { Repo } from '../workspace/repo.js';
import { loadRuntimeConfig } from '../workspace/runtime-config.js';
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

export interface Gate {
  readonly node: string;
  readonly outcome: string;
  readonly findings: readonly Diagnostic[];
  /** The recorded node's own gate was unmet, so the pointer could not move. */
  readonly stalled: boolean;
}

/** What a mutating command decided: the transitions to apply, and the gate it evaluated last. */
export interface Decision {
  readonly results: readonly TransitionResult[];
  readonly gate?: Gate;
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

/** What applying a decision did: the state saved, the edges taken and every effect's report. */
export interface Applied {
  readonly from: string | null;
  readonly state: GraphState;
  readonly taken: readonly Taken[];
  readonly gate: Gate | undefined;
  readonly reports: readonly EffectReport[];
}

/**
 * Decide and apply under the work item's state lock: read the state (entering the graph at its
 * start when there is none and `enter` allows; otherwise there is nothing to apply), apply the
 * transitions, save atomically, edit the execution log while the lock is held, and set labels and
 * send notifications after it is released. A refusal with no edge taken is a usage error.
 */
export async function applyUnderLock(
  repo: Repo,
  id: string,
  env: { readonly now: () => Date; readonly env: NodeJS.ProcessEnv },
  verb: string,
  decide: (state: GraphState, now: string) => Promise<Decision>,
  options: { readonly enter: boolean } = { enter: true },
): Promise<Applied | undefined> {
  const ctx: EffectContext = { repo, id, runtime: loadRuntimeConfig(repo), collaborators: await loadCollaborators(repo), env: env.env };
  const now = env.now().toISOString();
  const outcome = await withStateLock(repo, id, async () => {
    const recorded = await loadGraphState(repo, id);
    const effects: Effect[] = [];
    let state: GraphState;
    if (recorded) state = recorded;
    else if (!options.enter) return undefined;
    else {
      const started = startGraph(repo.config.graph, id, now);
      state = started.state;
      effects.push(...started.effects);
    }
    const from = state.currentNode;
    const { results, gate } = await decide(state, now);
    const refused = results.find((r) => !r.ok);
    const taken: Taken[] = [];
    for (const r of results) {
      if (!r.ok) break;
      state = r.state;
      effects.push(...r.effects);
      if (r.taken) taken.push(r.taken);
    }
    if (refused && !refused.ok && taken.length === 0) throw new UsageError(`${verb} refused: ${refused.reason}`);
    if (recorded === undefined || state !== recorded) await saveGraphState(repo, id, state);
    const reports = await runFileEffects(effects, ctx);
    return { state, effects, reports, from, taken, gate };
  });
  if (!outcome) return undefined;
  const reports = [...outcome.reports, ...(await runExternalEffects(outcome.effects, ctx))];
  return { from: outcome.from, state: outcome.state, taken: outcome.taken, gate: outcome.gate, reports };
}

/**
 * Move a work item's recorded pointer along the edges whose gates already pass, recording no
 * unmet attempt: what the Stop hook and `graph approve` do after they act. A work item with no
 * graph state, escalated or out of the graph is left alone; undefined when nothing moved.
 */
export async function catchUp(repo: Repo, id: string, env: { readonly now: () => Date; readonly env: NodeJS.ProcessEnv }, evaluate: EvaluateOptions = {}): Promise<Applied | undefined> {
  const applied = await applyUnderLock(
    repo,
    id,
    env,
    'catch-up',
    async (state, now) => (state.currentNode === null || state.currentNode === ESCALATED_NODE ? { results: [] } : step(repo, id, state, now, { recordUnmet: false, evaluate })),
    { enter: false },
  );
  return applied && applied.taken.length > 0 ? applied : undefined;
}
