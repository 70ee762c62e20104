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
  parseRuntimeConfig,
  startGraph,
  transition,
  type Diagnostic,
  type Effect,
  type GraphState,
  type Taken,
  type TransitionResult,
} from '@the-loop/core';
import { configurationError, UsageError } from '../errors.js';
import { runExternalEffects, runFileEffects, type EffectContext, type EffectReport } from '../effects/run-effects.js';
import { loadCollaborators } from '../workspace/collaborators.js';
import { evaluateFromDisk, evaluateNodeFromDisk } from '../gate/evaluate.js';
import { loadGraphState, saveGraphState, statePathOf, withStateLock } from '../state/graph-state-store.js';
import { sha256 } from '../workspace/digest.js';
import { READ_LIMITS } from '../limits.js';
import { readBytesIfPresent } from '../workspace/read-file.js';
import { artifactNames, resolveWorkItem } from '../workspace/read-work-item.js';
import { openRepo, type Repo } from '../workspace/repo.js';
import { oneOf, parseOptions, type Command, type CommandEnv } from './command.js';

const USAGE = `Usage: the-loop graph <subcommand> [options]

  show [<id>] [--format text|json|mermaid]     the lifecycle graph (the work item's node highlighted)
  status <id> [--format text|json]              recorded pointer, derived node, parked/escalated, approvals
  advance <id> [--outcome NAME] [--choice NODE] [--to NODE]
                                                evaluate the current node's gate and take the declared edge
  complete <id> --node NODE                     a verified claim: refused with the findings when the gate is unmet
  force <id> --to NODE --reason TEXT [--by LOGIN]
                                                move the pointer, audited in graph state and the execution log
  approve <id> <artifact> --by LOGIN            record an approver's approval of the artifact's current SHA-256
  opt-in <id> <node> --by LOGIN                 select an opt-in node (such as design-critic-review) for this work item
Every subcommand takes --repo DIR and --format text|json (show also mermaid).
Exit codes: 0 ok · 1 gate unmet, escalated or an effect failed · 2 usage, configuration or refused transition`;

const SUBCOMMANDS = ['show', 'status', 'advance', 'complete', 'force', 'approve', 'opt-in'] as const;
type Sub = (typeof SUBCOMMANDS)[number];

export const command: Command = {
  summary: 'the lifecycle graph: show, status, advance, complete, force, approve',
  usage: USAGE,
  async run(args, env) {
    const [sub, ...rest] = args;
    if (!sub || !(SUBCOMMANDS as readonly string[]).includes(sub)) throw new UsageError(`graph needs a subcommand (${SUBCOMMANDS.join(', ')})\n${USAGE}`);
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
      },
      USAGE,
    );
    const allowed: Record<Sub, readonly string[]> = {
      show: ['repo', 'format'],
      status: ['repo', 'format'],
      advance: ['repo', 'format', 'outcome', 'choice', 'to'],
      complete: ['repo', 'format', 'node'],
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
    const out = (doc: Record<string, unknown>, text: string): void => {
      env.stdout.write(format === 'json' ? `${JSON.stringify({ schemaVersion: 1, workItem: id, ...doc }, null, 2)}\n` : text);
    };
    if (sub === 'status') return status(repo, id, out);
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
    return mutate(repo, id, env, out, sub, (state, now) => step(repo, id, state, now, { outcome: values.outcome, choice: values.choice, to: values.to, claim: values.node }));
  },
};

interface StepOptions {
  readonly outcome: string | undefined;
  readonly choice: string | undefined;
  readonly to: string | undefined;
  readonly claim: string | undefined;
}

interface Gate {
  node: string;
  outcome: string;
  findings: readonly Diagnostic[];
  /** The recorded node's own gate was unmet, so the pointer could not move. */
  stalled: boolean;
}

// Evaluate the recorded node and take its edge; keep going while later gates already pass,
// so one advance catches the pointer up with the artifacts. Only the first gate evaluated
// records an unmet attempt: entering a node is not a failed try at it.
async function step(repo: Repo, id: string, state: GraphState, now: string, options: StepOptions): Promise<Decision> {
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
    const verdict = await evaluateNodeFromDisk(repo, id, node);
    const passing = verdict.outcome === 'pass' || verdict.outcome === 'skip';
    gate = { node, outcome: verdict.outcome, findings: verdict.findings, stalled: i === 0 && !passing };
    if (!passing && i > 0) break;
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

type Out = (doc: Record<string, unknown>, text: string) => void;

/** What a mutating command decided: the transitions to apply, and the gate it evaluated last. */
interface Decision {
  readonly results: readonly TransitionResult[];
  readonly gate?: Gate;
}

async function mutate(
  repo: Repo,
  id: string,
  env: CommandEnv,
  out: Out,
  verb: string,
  decide: (state: GraphState, now: string) => Promise<Decision>,
): Promise<number> {
  const runtime = parseRuntimeConfig(repo.config.source);
  if (!runtime.ok) throw configurationError('the configuration is invalid', runtime.issues);
  const ctx: EffectContext = { repo, id, runtime: runtime.config, collaborators: await loadCollaborators(repo), env: env.env };
  const now = env.now().toISOString();
  const outcome = await withStateLock(repo, id, async () => {
    const recorded = await loadGraphState(repo, id);
    const effects: Effect[] = [];
    let state: GraphState;
    if (recorded) state = recorded;
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
    await saveGraphState(repo, id, state);
    const reports = await runFileEffects(effects, ctx);
    return { state, effects, reports, from, taken, gate };
  });
  const reports: EffectReport[] = [...outcome.reports, ...(await runExternalEffects(outcome.effects, ctx))];
  const { state, gate } = outcome;
  const failedEffects = reports.filter((r) => r.status === 'failed');
  const unmet = gate !== undefined && gate.stalled && (gate.outcome === 'block' || (verb === 'complete' && gate.outcome === 'wait'));
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

async function status(repo: Repo, id: string, out: Out): Promise<number> {
  const state = (await loadGraphState(repo, id)) ?? null;
  const derived = await evaluateFromDisk(repo, id, { recompute: true });
  const recorded = state ? state.currentNode : undefined;
  const agrees = state === null || recorded === derived.currentNode;
  const lines = [
    `${id}`,
    `  recorded node: ${state ? (state.currentNode ?? '(done)') : '(no graph state yet)'}`,
    `  derived node:  ${derived.currentNode ?? '(done)'}${agrees ? '' : '   ← disagrees with the recorded node (phase-mismatch)'}`,
    ...(state?.parked ? [`  parked:        ${state.parked.node} since ${state.parked.since} (${state.parked.reason})`] : []),
    ...(state?.escalated ? [`  escalated:     ${state.escalated.node} at ${state.escalated.at} (${state.escalated.reason})`] : []),
    ...(state?.approvals ?? []).map((a) => `  approval:      ${a.artifact} by ${a.by} at ${a.at} (sha256:${a.digest.slice(0, 12)}…)`),
    ...(state?.forced ?? []).map((f) => `  forced:        ${f.from ?? '(none)'} → ${f.to} at ${f.at}: ${f.reason}`),
  ];
  out({ recordedNode: recorded ?? null, derivedNode: derived.currentNode, agrees, state, findings: derived.findings }, `${lines.join('\n')}\n`);
  return 0;
}

async function approve(repo: Repo, id: string, artifact: string, by: string | undefined, env: CommandEnv, out: Out): Promise<number> {
  if (!by) throw new UsageError(`graph approve needs --by LOGIN\n${USAGE}`);
  const known = artifactNames(repo.config.graph);
  if (!known.includes(artifact)) throw new UsageError(`"${artifact}" is not an artifact of the lifecycle (known: ${known.join(', ')})`);
  const collaborators = await loadCollaborators(repo);
  const approvers = loginsWithRole(collaborators, APPROVER_ROLE);
  if (!approvers.includes(by)) {
    throw new UsageError(`"${by}" is not listed with the ${APPROVER_ROLE} role in .the-loop/collaborators.yaml${approvers.length > 0 ? ` (approvers: ${approvers.join(', ')})` : ' (no approvers are listed)'}`);
  }
  const shown = `${repo.config.specDir}/${id}/${artifact}`;
  // The bytes the gate digests, read the way the gate reads them: a FIFO or a link out of the repository is never approved.
  const bytes = await readBytesIfPresent(join(repo.specRoot, id, artifact), { within: repo.root, maxBytes: READ_LIMITS.artifact }).catch((error: Error) => {
    throw new UsageError(`${shown} cannot be approved: ${error.message}`);
  });
  if (bytes === undefined) throw new UsageError(`${shown} does not exist; there is nothing to approve`);
  const digest = sha256(bytes);
  return mutate(repo, id, env, out, 'approve', async (state, now) => ({
    results: [{ ok: true, state: { ...state, approvals: [...state.approvals, { artifact, digest, by, at: now }] }, effects: [], taken: null }],
  }));
}

async function optIn(repo: Repo, id: string, node: string, by: string | undefined, env: CommandEnv, out: Out): Promise<number> {
  if (!by) throw new UsageError(`graph opt-in needs --by LOGIN\n${USAGE}`);
  const optional = repo.config.graph.nodes.filter((n) => n.optIn).map((n) => n.id);
  if (!optional.includes(node)) throw new UsageError(`"${node}" is not an opt-in node (opt-in nodes: ${optional.join(', ') || 'none'})`);
  // Opting in adds work, so any listed collaborator may do it; it can never remove a gate.
  if (!(await loadCollaborators(repo)).some((c) => c.login === by)) throw new UsageError(`"${by}" is not listed in .the-loop/collaborators.yaml`);
  return mutate(repo, id, env, out, 'opt-in', async (state) => ({
    results: [{ ok: true, state: { ...state, selectedOptIns: [...new Set([...state.selectedOptIns, node])] }, effects: [], taken: null }],
  }));
}
