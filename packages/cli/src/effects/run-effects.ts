import { join } from 'node:path';
import { CONFLICTS_FILE, EXECUTION_LOG, appendConflict, appendTransitionRow, issueNumberOf, loginsWithRole, setFrontMatterValue, type Collaborator, type Effect, type RuntimeConfig } from '@the-loop/core';
import { writeFileAtomic } from '../workspace/atomic-write.js';
import { READ_LIMITS } from '../limits.js';
import { readIfPresent } from '../workspace/read-file.js';
import type { Repo } from '../workspace/repo.js';
import { deliver } from './notify.js';
import { ghCall, restCall, restToken } from '../github/client.js';
import { ghLabelPort, replaceLoopLabel, restLabelPort, type LabelPort } from '../github/labels.js';

/** What happened to one effect: never claimed done when it was skipped or failed. */
export type EffectReport = Effect & { readonly status: 'done' | 'skipped' | 'failed'; readonly detail: string };

export interface EffectContext {
  readonly repo: Repo;
  readonly id: string;
  readonly runtime: RuntimeConfig;
  readonly collaborators: readonly Collaborator[];
  readonly env: NodeJS.ProcessEnv;
}

/** Effects on the work item's own files; run while the state lock is held. */
export async function runFileEffects(effects: readonly Effect[], ctx: EffectContext): Promise<EffectReport[]> {
  const reports: EffectReport[] = [];
  for (const effect of effects) {
    if (effect.kind === 'log-transition' || effect.kind === 'set-log-phase') reports.push(await editLog(effect, ctx));
    else if (effect.kind === 'record-conflict') reports.push(await recordConflict(effect, ctx));
    else if (effect.kind === 'assignment' || effect.kind === 'log') reports.push({ ...effect, status: 'done', detail: effect.kind === 'log' ? effect.message : 'rendered' });
  }
  return reports;
}

/** Effects outside the repository (labels, notifications); run after the lock is released. */
export async function runExternalEffects(effects: readonly Effect[], ctx: EffectContext): Promise<EffectReport[]> {
  const reports: EffectReport[] = [];
  const labels = effects.filter((e) => e.kind === 'set-label');
  const last = labels[labels.length - 1];
  for (const effect of effects) {
    if (effect.kind === 'set-label') {
      // Only the last label of one command matters; the earlier ones would be replaced at once.
      reports.push(effect === last ? await setLabel(effect, ctx) : { ...effect, status: 'skipped', detail: `superseded by ${last!.kind === 'set-label' ? last!.label : ''}` });
    } else if (effect.kind === 'notify') reports.push(await notify(effect, ctx));
  }
  return reports;
}

async function editLog(effect: Extract<Effect, { kind: 'log-transition' | 'set-log-phase' }>, ctx: EffectContext): Promise<EffectReport> {
  const path = join(ctx.repo.specRoot, ctx.id, EXECUTION_LOG);
  let text: string | undefined;
  try {
    text = await readIfPresent(path, { within: ctx.repo.root, maxBytes: READ_LIMITS.artifact });
  } catch (error) {
    return { ...effect, status: 'failed', detail: `cannot read ${EXECUTION_LOG}: ${(error as Error).message}` };
  }
  if (text === undefined) return { ...effect, status: 'skipped', detail: `${EXECUTION_LOG} does not exist yet` };
  let next: string;
  if (effect.kind === 'log-transition') next = appendTransitionRow(text, effect.row);
  else {
    const edited = setFrontMatterValue(text, 'phase', effect.phase);
    if (!edited.ok) return { ...effect, status: 'failed', detail: `${EXECUTION_LOG} was left alone: ${edited.reason}` };
    next = edited.text;
  }
  try {
    await writeFileAtomic(path, next);
  } catch (error) {
    return { ...effect, status: 'failed', detail: `cannot write ${EXECUTION_LOG}: ${(error as Error).message}` };
  }
  return { ...effect, status: 'done', detail: effect.kind === 'log-transition' ? `${effect.row.from} → ${effect.row.to}` : `phase: ${effect.phase}` };
}

// conflicts.md is the escalation's written record: created when absent, never skipped.
async function recordConflict(effect: Extract<Effect, { kind: 'record-conflict' }>, ctx: EffectContext): Promise<EffectReport> {
  const path = join(ctx.repo.specRoot, ctx.id, CONFLICTS_FILE);
  try {
    await writeFileAtomic(path, appendConflict(await readIfPresent(path, { within: ctx.repo.root, maxBytes: READ_LIMITS.artifact }), ctx.id, effect.entry));
  } catch (error) {
    return { ...effect, status: 'failed', detail: `cannot write ${CONFLICTS_FILE}: ${(error as Error).message}` };
  }
  return { ...effect, status: 'done', detail: `${CONFLICTS_FILE}: escalated at ${effect.node}` };
}

async function setLabel(effect: Extract<Effect, { kind: 'set-label' }>, ctx: EffectContext): Promise<EffectReport> {
  const github = ctx.runtime.github;
  if (!github) return { ...effect, status: 'skipped', detail: 'no `github:` configuration in .the-loop/harness-config.yaml' };
  const issue = issueNumberOf(ctx.id);
  if (issue === undefined) return { ...effect, status: 'skipped', detail: `work item "${ctx.id}" names no issue (ids of the form issue-<number> do)` };
  let port: LabelPort;
  if (github.port === 'rest') {
    const token = restToken(ctx.env);
    if (!token) return { ...effect, status: 'failed', detail: 'github.port is rest, but neither GITHUB_TOKEN nor GH_TOKEN is set' };
    port = restLabelPort(github, restCall(github, token));
  } else port = ghLabelPort(github, ghCall(ctx.env, ctx.repo.root));
  try {
    return { ...effect, status: 'done', detail: await replaceLoopLabel(port, issue, effect.label) };
  } catch (error) {
    return { ...effect, status: 'failed', detail: (error as Error).message };
  }
}

async function notify(effect: Extract<Effect, { kind: 'notify' }>, ctx: EffectContext): Promise<EffectReport> {
  if (effect.roles.length === 0) return { ...effect, status: 'skipped', detail: `node "${effect.node}" names no roles for ${effect.event}` };
  const config = ctx.runtime.notifications;
  if (!config || (!config.command && !config.webhook)) return { ...effect, status: 'skipped', detail: 'no `notifications:` configuration in .the-loop/harness-config.yaml' };
  const recipients = [...new Set(effect.roles.flatMap((role) => loginsWithRole(ctx.collaborators, role)))];
  if (recipients.length === 0) return { ...effect, status: 'skipped', detail: `no collaborator holds ${effect.roles.join(', ')} in .the-loop/collaborators.yaml` };
  try {
    const detail = await deliver(config, { schemaVersion: 1, event: effect.event, workItem: ctx.id, node: effect.node, roles: effect.roles, recipients, message: effect.message }, ctx.env, ctx.repo.root);
    return { ...effect, status: 'done', detail };
  } catch (error) {
    return { ...effect, status: 'failed', detail: (error as Error).message };
  }
}
