import { join } from 'node:path';
import {
  APPROVER_ROLE,
  ESCALATED_NODE,
  forceTransition,
  formatLocation,
  graphDocument,
  graphToMermaid,
  graphToText,
  loginsWithRole,
  recordedPointer,
  type GraphState,
  type TransitionResult,
} from '@the-loop/core';
import { UsageError } from '../errors.js';
import { catchUp, followedBy, step } from '../gate/advance.js';
import { evaluateFromDisk, type EvaluateOptions } from '../gate/evaluate.js';
import { commitTransitions, type Decision } from '../state/commit-transitions.js';
import { loadGraphState } from '../state/graph-state-store.js';
import { approvalDigest } from '../workspace/digest.js';
import { READ_LIMITS } from '../limits.js';
import { readBytesIfPresent } from '../workspace/read-file.js';
import { artifactNames, resolveWorkItem } from '../workspace/read-work-item.js';
import { openRepo, type Repo } from '../workspace/repo.js';
import { loadRuntimeConfig } from '../workspace/runtime-config.js';
import { oneOf, parseOptions, pullRequestOption, unknownSubcommand, type Command, type CommandEnv } from './command.js';

const USAGE = `Usage: the-loop graph <subcommand> [options]

  show [<id>] [--format text|json|mermaid]     the lifecycle graph (the work item's node highlighted)
  status <id> [--format text|json] [--pr N]     recorded pointer, derived node, parked/escalated, approvals
  advance <id> [--outcome NAME] [--choice NODE] [--to NODE] [--pr N]
                                                evaluate the current node's gate and take the declared edge
  complete <id> --node NODE [--pr N]            a verified claim: refused with the findings when the gate is unmet
  force <id> --to NODE --reason TEXT [--by LOGIN]
                                                move the pointer, audited in graph state and the execution log
  approve <id> <artifact> --by LOGIN            record an approver's approval of the artifact's current SHA-256,
                                                then move the pointer along the gates that now pass
                                                (refused under approvals.source: github: approvals are reviews)
  opt-in <id> <node> --by LOGIN                 select an opt-in node (such as design-critic-review) for this work item
Every subcommand takes --repo DIR and --format text|json (show also mermaid). --pr N names the pull
request whose reviews approve under approvals.source: github (default: the Actions event's, or the branch's).
Exit codes: 0 ok · 1 gate unmet, escalated or an effect failed · 2 usage, configuration or refused transition`;

const SUBCOMMANDS = ['show', 'status', 'advance', 'complete', 'force', 'approve', 'opt-in'] as const;
type Sub = (typeof SUBCOMMANDS)[number];

export const command: Command = {
  summary: 'the lifecycle graph: show, status, advance, complete, force, approve',
  usage: USAGE,
  async run(args, env) {
    const [sub, ...rest] = args;
    if (!sub || !(SUBCOMMANDS as readonly string[]).includes(sub)) throw unknownSubcommand('graph', sub, SUBCOMMANDS);
    const { values, positionals } = parseOptions(
      rest,
      {
        repo: { type: 'string' },
        format: { type: 'string' },
        outcome: { type: 'string' },
        choice: { type: 'string' },
        to: { type: 'string' },
        node: { type: 'string' },
        reason: { type: 'string' },
        by: { type: 'string' },
        pr: { type: 'string' },
      },
      USAGE,
    );
    const allowed: Record<Sub, readonly string[]> = {
      show: ['repo', 'format'],
      status: ['repo', 'format', 'pr'],
      advance: ['repo', 'format', 'outcome', 'choice', 'to', 'pr'],
      complete: ['repo', 'format', 'node', 'pr'],
      force: ['repo', 'format', 'to', 'reason', 'by'],
      approve: ['repo', 'format', 'by'],
      'opt-in': ['repo', 'format', 'by'],
    };
    for (const key of Object.keys(values)) {
      if (!allowed[sub as Sub].includes(key)) throw new UsageError(`graph ${sub} takes no --${key}\n${USAGE}`);
    }
    const repo = await openRepo(env.cwd, values.repo);
    if (sub === 'show') return show(repo, positionals, values.format, env);
    const [id, ...more] = positionals;
    const arity = sub === 'approve' || sub === 'opt-in' ? 1 : 0;
    if (id === undefined || more.length !== arity) {
      throw new UsageError(`graph ${sub} takes ${sub === 'approve' ? 'a work-item id and an artifact' : sub === 'opt-in' ? 'a work-item id and a node' : 'exactly one work-item id'}\n${USAGE}`);
    }
    await resolveWorkItem(repo, id);
    const format = oneOf(values.format, ['text', 'json'] as const, 'text', '--format');
    const evaluate: EvaluateOptions = { env: env.env, pullRequest: pullRequestOption(values.pr, repo, env) };
    const out = (doc: Record<string, unknown>, text: string): void => {
      env.stdout.write(format === 'json' ? `${JSON.stringify({ schemaVersion: 1, workItem: id, ...doc }, null, 2)}\n` : text);
    };
    if (sub === 'status') return status(repo, id, out, evaluate);
    if (sub === 'approve') return approve(repo, id, more[0]!, values.by, env, out);
    if (sub === 'opt-in') return optIn(repo, id, more[0]!, values.by, env, out);
    if (sub === 'force') {
      if (!values.to || !values.reason) throw new UsageError(`graph force needs --to NODE and --reason TEXT\n${USAGE}`);
      const to = values.to;
      const reason = values.reason;
      return mutate(repo, id, env, out, 'force', async (state, now) => ({ results: [forceTransition(repo.config.graph, state, to, reason, values.by ?? null, now)] }));
    }
    if (sub === 'complete' && !values.node) throw new UsageError(`graph complete needs --node NODE\n${USAGE}`);
    if (values.outcome && ['pass', 'skip', 'block', 'wait'].includes(values.outcome)) {
      throw new UsageError(`--outcome ${values.outcome}: the gate decides pass, skip, block and wait; --outcome names a routing outcome such as changes-requested`);
    }
    return mutate(repo, id, env, out, sub, (state, now) => step(repo, id, state, now, { outcome: values.outcome, choice: values.choice, to: values.to, claim: values.node, recordUnmet: true, evaluate }));
  },
};

type Out = (doc: Record<string, unknown>, text: string) => void;

async function mutate(
  repo: Repo,
  id: string,
  env: CommandEnv,
  out: Out,
  verb: string,
  decide: (state: GraphState, now: string) => Promise<Decision>,
): Promise<number> {
  const committed = await commitTransitions(repo, id, env, verb, decide);
  // A node entered along passing gates may have written what its own gate reads (its phase):
  // follow the pointer until it stops. A routed outcome, a choice or a force is where a person sent it.
  const alongGates = committed.taken.length > 0 && !committed.gate?.stalled && committed.taken.every((t) => t.on === 'pass' || t.on === 'skip');
  const follow = alongGates && verb !== 'force' ? await catchUp(repo, id, env, { env: env.env }) : undefined;
  const outcome = follow ? followedBy(committed, follow) : committed;
  const reports = outcome.reports;
  const { state, gate } = outcome;
  const failedEffects = reports.filter((r) => r.status === 'failed');
  // Only a claim or an advance is about the recorded node's gate; an approval that moves nothing is still recorded.
  const claimed = verb === 'advance' || verb === 'complete';
  const unmet = claimed && gate !== undefined && gate.stalled && (gate.outcome === 'block' || (verb === 'complete' && gate.outcome === 'wait'));
  const escalated = state.currentNode === ESCALATED_NODE && outcome.from !== ESCALATED_NODE;
  const ok = !unmet && !escalated && failedEffects.length === 0;
  const lines = [
    `${id}: ${outcome.from ?? '(start)'} → ${state.currentNode ?? '(done)'}${outcome.taken.length > 0 ? `  via ${outcome.taken.map((t) => `${t.from} -${t.on}→ ${t.to ?? 'exit'}`).join(', ')}` : ''}`,
    ...(gate && gate.outcome !== 'pass' && gate.outcome !== 'skip' ? [`gate of ${gate.node}: ${gate.outcome}`, ...gate.findings.map((d) => `  ${formatLocation(d)}  ${d.ruleId}  ${d.message}`)] : []),
    ...(state.parked ? [`parked at ${state.parked.node}: ${state.parked.reason}`] : []),
    ...(state.escalated ? [`escalated from ${state.escalated.node}: ${state.escalated.reason}`] : []),
    ...reports.filter((r) => r.kind !== 'assignment').map((r) => `  ${r.status.padEnd(7)} ${r.kind} (${r.event} ${r.node}): ${r.detail}`),
    ...reports.filter((r) => r.kind === 'assignment' && r.node === state.currentNode).slice(-1).map((r) => `\n${r.kind === 'assignment' ? r.text : ''}`),
  ];
  out(
    {
      command: verb,
      ok,
      from: outcome.from,
      currentNode: state.currentNode,
      taken: outcome.taken,
      gate: gate ?? null,
      parked: state.parked,
      escalated: state.escalated,
      effects: reports,
      state,
    },
    `${lines.join('\n')}\n`,
  );
  return ok ? 0 : 1;
}

async function show(repo: Repo, positionals: readonly string[], formatOption: string | undefined, env: CommandEnv): Promise<number> {
  const format = oneOf(formatOption, ['text', 'json', 'mermaid'] as const, 'text', '--format');
  if (positionals.length > 1) throw new UsageError(`graph show takes at most one work-item id\n${USAGE}`);
  const id = positionals[0];
  let current: string | null = null;
  if (id !== undefined) {
    await resolveWorkItem(repo, id);
    const state = await loadGraphState(repo, id);
    current = state ? state.currentNode : (await evaluateFromDisk(repo, id)).currentNode;
  }
  const graph = repo.config.graph;
  if (format === 'json') env.stdout.write(`${JSON.stringify({ schemaVersion: 1, ...graphDocument(graph), ...(id !== undefined ? { workItem: id, currentNode: current } : {}) }, null, 2)}\n`);
  else if (format === 'mermaid') env.stdout.write(graphToMermaid(graph, current));
  else env.stdout.write(graphToText(graph, current));
  return 0;
}

async function status(repo: Repo, id: string, out: Out, evaluate: EvaluateOptions): Promise<number> {
  const state = (await loadGraphState(repo, id)) ?? null;
  const derived = await evaluateFromDisk(repo, id, { ...evaluate, recompute: true });
  const recorded = state ? state.currentNode : undefined;
  const pointer = state === null ? 'agrees' : recordedPointer(repo.config.graph, state.currentNode, derived.currentNode);
  const fromReviews = loadRuntimeConfig(repo).approvals.source === 'github';
  const lines = [
    `${id}`,
    `  recorded node: ${state ? (state.currentNode ?? '(done)') : '(no graph state yet)'}`,
    `  derived node:  ${derived.currentNode ?? '(done)'}${POINTER_NOTE[pointer]}`,
    ...(state?.parked ? [`  parked:        ${state.parked.node} since ${state.parked.since} (${state.parked.reason})`] : []),
    ...(state?.escalated ? [`  escalated:     ${state.escalated.node} at ${state.escalated.at} (${state.escalated.reason})`] : []),
    ...(fromReviews ? ['  approvals:     from the pull request\'s reviews (approvals.source: github)'] : []),
    ...(state?.approvals ?? []).map((a) => `  approval:      ${a.artifact} by ${a.by} at ${a.at} (sha256:${a.digest.slice(0, 12)}…)${fromReviews ? ' — ignored' : ''}`),
    ...(state?.forced ?? []).map((f) => `  forced:        ${f.from ?? '(none)'} → ${f.to} at ${f.at}: ${f.reason}`),
  ];
  out({ recordedNode: recorded ?? null, derivedNode: derived.currentNode, agrees: pointer === 'agrees', pointer, state, findings: derived.findings }, `${lines.join('\n')}\n`);
  return 0;
}

const POINTER_NOTE = {
  agrees: '',
  behind: '   ← the recorded node is behind it; `graph advance` (or the next Stop hook) catches up',
  ahead: '   ← the recorded node is ahead of the artifacts (phase-mismatch)',
} as const;

async function approve(repo: Repo, id: string, artifact: string, by: string | undefined, env: CommandEnv, out: Out): Promise<number> {
  if (loadRuntimeConfig(repo).approvals.source === 'github') {
    throw new UsageError(
      'graph approve records nothing under approvals.source: github: approvals come from the pull request\'s reviews on GitHub. ' +
        'An approver listed in .the-loop/collaborators.yaml approves the pull request there, and the gate reads the review.',
    );
  }
  if (!by) throw new UsageError(`graph approve needs --by LOGIN\n${USAGE}`);
  const known = artifactNames(repo.config);
  if (!known.includes(artifact)) throw new UsageError(`"${artifact}" is not an artifact of the lifecycle (known: ${known.join(', ')})`);
  const approvers = loginsWithRole(repo.collaborators, APPROVER_ROLE);
  if (!approvers.includes(by)) {
    throw new UsageError(`"${by}" is not listed with the ${APPROVER_ROLE} role in .the-loop/collaborators.yaml${approvers.length > 0 ? ` (approvers: ${approvers.join(', ')})` : ' (no approvers are listed)'}`);
  }
  const shown = `${repo.config.specDir}/${id}/${artifact}`;
  // The bytes the gate digests, read the way the gate reads them: a FIFO or a link out of the repository is never approved.
  const bytes = await readBytesIfPresent(join(repo.specRoot, id, artifact), { within: repo.root, maxBytes: READ_LIMITS.artifact }).catch((error: Error) => {
    throw new UsageError(`${shown} cannot be approved: ${error.message}`);
  });
  if (bytes === undefined) throw new UsageError(`${shown} does not exist; there is nothing to approve`);
  const digest = approvalDigest(artifact, bytes);
  // Record the approval, then move the pointer along the gates that pass now (recording no unmet attempt).
  return mutate(repo, id, env, out, 'approve', async (state, now) => {
    const approved: GraphState = { ...state, approvals: [...state.approvals, { artifact, digest, by, at: now }] };
    const recorded: TransitionResult = { ok: true, state: approved, effects: [], taken: null };
    if (approved.currentNode === null || approved.currentNode === ESCALATED_NODE) return { results: [recorded] };
    const moved = await step(repo, id, approved, now, { recordUnmet: false, evaluate: { env: env.env } });
    return { ...moved, results: [recorded, ...moved.results] };
  });
}

async function optIn(repo: Repo, id: string, node: string, by: string | undefined, env: CommandEnv, out: Out): Promise<number> {
  if (!by) throw new UsageError(`graph opt-in needs --by LOGIN\n${USAGE}`);
  const optional = repo.config.graph.nodes.filter((n) => n.optIn).map((n) => n.id);
  if (!optional.includes(node)) throw new UsageError(`"${node}" is not an opt-in node (opt-in nodes: ${optional.join(', ') || 'none'})`);
  // Opting in adds work, so any listed collaborator may do it; it can never remove a gate.
  if (!repo.collaborators.some((c) => c.login === by)) throw new UsageError(`"${by}" is not listed in .the-loop/collaborators.yaml`);
  return mutate(repo, id, env, out, 'opt-in', async (state) => ({
    results: [{ ok: true, state: { ...state, selectedOptIns: [...new Set([...state.selectedOptIns, node])] }, effects: [], taken: null }],
  }));
}
