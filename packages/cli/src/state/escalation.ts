import { escalateAt, emptyGraphState, parseRuntimeConfig } from '@the-loop/core';
import { runExternalEffects, runFileEffects, type EffectContext } from '../effects/run-effects.js';
import { loadGraphState, saveGraphState, statePathOf, withStateLock } from './graph-state-store.js';
import type { Repo } from '../workspace/repo.js';

/**
 * Persist a no-progress escalation in the work item's graph state, exactly as a transition
 * would: the `escalated` node is entered, the log records it, and its effects fire. A work item
 * already escalated stays as it is. Returns the state file's path, for the message.
 */
export async function persistEscalation(repo: Repo, id: string, node: string, reason: string, env: { readonly now: () => Date; readonly env: NodeJS.ProcessEnv }): Promise<string> {
  const runtime = parseRuntimeConfig(repo.config.source);
  const now = env.now().toISOString();
  const ctx: EffectContext | undefined = runtime.ok ? { repo, id, runtime: runtime.config, collaborators: repo.collaborators, env: env.env } : undefined;
  const effects = await withStateLock(repo, id, async () => {
    const state = (await loadGraphState(repo, id)) ?? emptyGraphState(id);
    const result = escalateAt(repo.config.graph, state, node, reason, now);
    if (!result.ok) return [];
    await saveGraphState(repo, id, result.state);
    if (ctx) await runFileEffects(result.effects, ctx);
    return result.effects;
  });
  if (ctx) await runExternalEffects(effects, ctx);
  return statePathOf(repo, id);
}
