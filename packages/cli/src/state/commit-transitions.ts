import { emptyGraphState, parseRuntimeConfig, startGraph, type Diagnostic, type Effect, type GraphState, type Taken, type TransitionResult } from '@the-loop/core';
import { configurationError, UsageError } from '../errors.js';
import { runExternalEffects, runFileEffects, type EffectContext, type EffectReport } from '../effects/run-effects.js';
import type { Repo } from '../workspace/repo.js';
import { loadGraphState, saveGraphState, withStateLock } from './graph-state-store.js';

/** The gate a decision evaluated last. */
export interface Gate {
  readonly node: string;
  readonly outcome: string;
  readonly findings: readonly Diagnostic[];
  /** The recorded node's own gate was unmet, so the pointer could not move. */
  readonly stalled: boolean;
}

/** What a command decided: the transitions to apply, and the gate it evaluated last. */
export interface Decision {
  readonly results: readonly TransitionResult[];
  readonly gate?: Gate;
}

/** A decision applied: the state saved, and every effect run and reported. */
export interface Committed {
  /** The node the decision started from (the start node for a work item entering the graph); null when at no node. */
  readonly from: string | null;
  readonly state: GraphState;
  readonly effects: readonly Effect[];
  readonly reports: readonly EffectReport[];
  readonly taken: readonly Taken[];
  readonly gate: Gate | undefined;
}

/** What committing needs besides the repository: the clock and the environment effects run with. */
export interface CommitEnv {
  readonly now: () => Date;
  readonly env: NodeJS.ProcessEnv;
}

export interface CommitOptions {
  /**
   * `skip-effects`: a broken `github:`/`notifications:` section does not stop the commit;
   * the state is still saved and no effect runs. A hook that must persist an escalation uses
   * it. By default a broken section is a configuration error and nothing is written.
   */
  readonly onBrokenRuntimeConfig?: 'fail' | 'skip-effects';
  /**
   * What a work item without graph state starts from: `start` enters the graph at its start
   * node (with that move's effects); `empty` hands `decide` a state that is at no node yet;
   * `leave` decides nothing and writes nothing (the result is undefined).
   */
  readonly withoutState?: 'start' | 'empty' | 'leave';
}

/**
 * Read the work item's graph state under its lock (entering the graph at its start when it
 * has none), let `decide` choose the transitions, save the new state, then run the effects:
 * the work item's files while the lock is held, labels and notifications after. A refused
 * transition with nothing taken before it is a usage error naming the declared options.
 */
export async function commitTransitions(
  repo: Repo,
  id: string,
  env: CommitEnv,
  verb: string,
  decide: (state: GraphState, now: string) => Promise<Decision>,
  options: CommitOptions & { readonly withoutState: 'leave' },
): Promise<Committed | undefined>;
export async function commitTransitions(
  repo: Repo,
  id: string,
  env: CommitEnv,
  verb: string,
  decide: (state: GraphState, now: string) => Promise<Decision>,
  options?: CommitOptions & { readonly withoutState?: 'start' | 'empty' },
): Promise<Committed>;
export async function commitTransitions(
  repo: Repo,
  id: string,
  env: CommitEnv,
  verb: string,
  decide: (state: GraphState, now: string) => Promise<Decision>,
  options: CommitOptions = {},
): Promise<Committed | undefined> {
  const runtime = parseRuntimeConfig(repo.config.source);
  if (!runtime.ok && options.onBrokenRuntimeConfig !== 'skip-effects') throw configurationError('the configuration is invalid', runtime.issues);
  const ctx: EffectContext | undefined = runtime.ok ? { repo, id, runtime: runtime.config, collaborators: repo.collaborators, env: env.env } : undefined;
  const now = env.now().toISOString();
  const outcome = await withStateLock(repo, id, async () => {
    const recorded = await loadGraphState(repo, id);
    const effects: Effect[] = [];
    let state: GraphState;
    if (recorded) state = recorded;
    else if (options.withoutState === 'leave') return undefined;
    else if (options.withoutState === 'empty') state = emptyGraphState(id);
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
    // Nothing taken on a recorded state: the file stays as it is (a catch-up that found nothing to move).
    if (recorded === undefined || state !== recorded) await saveGraphState(repo, id, state);
    const reports = ctx ? await runFileEffects(effects, ctx) : [];
    return { state, effects, reports, from, taken, gate };
  });
  if (!outcome) return undefined;
  const reports: EffectReport[] = [...outcome.reports, ...(ctx ? await runExternalEffects(outcome.effects, ctx) : [])];
  return { ...outcome, reports };
}
