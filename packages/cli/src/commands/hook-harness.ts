import { relative, resolve, sep } from 'node:path';
import { closest, findingWithFix, formatLocation, recordedPointer, type GraphStateResult, type HarnessAdapter, type HookEvent, type HookPayload } from '@the-loop/core';
import { blockingFindings, editedArtifact, parseHooksConfig, sessionContext } from '@the-loop/hooks';
import { configurationError, UsageError } from '../errors.js';
import { harnessNamed } from '../harness/adapters.js';
import { resolveCurrentWorkItem } from '../gate/current-work-item.js';
import { catchUp } from '../gate/advance.js';
import { evaluateFromDisk } from '../gate/evaluate.js';
import { readGraphState } from '../state/graph-state-store.js';
import { resolveWorkItem } from '../workspace/read-work-item.js';
import { findRepoRoot, loadRepo, type Repo } from '../workspace/repo.js';
import { parseOptions, type CommandEnv } from './command.js';
import { HOOKS_OFF_NOTE, hooksAreOff } from '../harness/hooks-off.js';
import { readStdin } from '../process/read-stdin.js';
import { persistEscalation } from '../state/escalation.js';
import { decideStopWithState } from '../state/stop-counters.js';
import { withCache } from '../cache/artifact-cache.js';

/** The `hook` command's help, naming the harnesses and events it is given. */
export function harnessHookUsage(adapters: readonly HarnessAdapter[]): string {
  const width = Math.max(0, ...adapters.map((a) => a.title.length)) + 9;
  return `Usage: the-loop hook <event> --harness ${adapters.map((a) => a.name).join('|')} [--work-item ID] [--repo DIR]

A harness hook: reads the harness's JSON payload on stdin and answers in its dialect on stdout.
${adapters.map((a) => `  ${`${a.title} events:`.padEnd(width)}${a.hooks.events.map((e) => e.name).join(', ')}`).join('\n')}
  --work-item ID      the work item (default: .the-loop/current, the branch name, or the only open item)
  --repo DIR          the repository (default: the project directory the harness names, the payload's workspace or cwd)
Exit codes: 0 answered (stdout holds the reply) · 1 the hook could not run; the harness carries on
(a broken gate must never trap a session). It never exits 2, which Claude Code reads as "block".`;
}

/** Answer one harness hook event. Any failure allows the harness to carry on and says why on stderr. */
export async function runHarnessHook(args: readonly string[], env: CommandEnv): Promise<number> {
  try {
    const reply = await answer(args, env);
    env.stdout.write(`${JSON.stringify(reply)}\n`);
    return 0;
  } catch (error) {
    const message = error instanceof UsageError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error);
    env.stderr.write(`the-loop hook: ${message}\nthe-loop hook: not enforcing this time; fix the error above (\`the-loop doctor\` checks the set-up).\n`);
    return 1;
  }
}

async function answer(args: readonly string[], env: CommandEnv): Promise<Record<string, unknown>> {
  const usage = harnessHookUsage(env.adapters);
  const { values, positionals } = parseOptions(args, { harness: { type: 'string' }, 'work-item': { type: 'string' }, repo: { type: 'string' } }, usage);
  const adapter = harnessNamed(env.adapters, values.harness, usage);
  const { hooks } = adapter;
  const event = hooks.events.find((e) => e.name === positionals[0]);
  if (positionals.length !== 1 || event === undefined) {
    const names = hooks.events.map((e) => e.name);
    const guess = positionals.length === 1 ? closest(positionals[0] as string, names) : undefined;
    throw new UsageError(`${adapter.name} hook event must be one of ${names.join(', ')}; got ${positionals.length === 0 ? 'none' : `"${positionals.join(' ')}"`}${guess ? ` (did you mean "${guess}"?)` : ''}`);
  }
  const parsed = hooks.parsePayload(await readStdin(env.stdin));
  if (!parsed.ok) throw new UsageError(parsed.error);
  const payload = parsed.payload;
  if (hooksAreOff(env.env)) {
    env.stderr.write(`the-loop: ${HOOKS_OFF_NOTE}\n`);
    return {};
  }
  const fromHarness = hooks.projectDirVariable === undefined ? undefined : env.env[hooks.projectDirVariable] || undefined;
  const declared = values.repo ?? fromHarness ?? payload.projectDir ?? undefined;
  // Without a declared root, the session may sit in a subdirectory: climb to the project.
  const root = declared === undefined ? await findRepoRoot(resolve(env.cwd, payload.cwd ?? '.')) : resolve(env.cwd, declared);
  const repo = withCache(await loadRepo(root), env.env);
  const hooksConfig = parseHooksConfig(repo.config.source);
  if (!hooksConfig.ok) throw configurationError('the hooks configuration is invalid', hooksConfig.issues);
  const say = (text: string): void => void env.stderr.write(`the-loop: ${text}\n`);

  if (event.kind === 'stop') {
    if (payload.turnStatus !== null && payload.turnStatus !== 'completed') {
      say(`the turn ended with status "${payload.turnStatus}"; no follow-up`);
      return hooks.stopReply(undefined);
    }
    const resolution = await resolveCurrentWorkItem(repo, values['work-item']);
    if (resolution.id === undefined) {
      say(`${resolution.why} Allowing the stop.`);
      return hooks.stopReply(undefined);
    }
    // An item graph state has escalated waits on a person (`graph force`): never push on.
    const state = await readGraphState(repo, resolution.id);
    if (state?.ok && state.state.escalated) {
      say(`${resolution.id} is escalated at "${state.state.escalated.node}" (${state.state.escalated.reason}); a person resolves it. Allowing the stop.`);
      return hooks.stopReply(undefined);
    }
    // Baseline entries the session added itself accept nothing here (docs/hooks.md).
    const result = await evaluateFromDisk(repo, resolution.id, { env: env.env, baseline: 'committed' });
    const decision = await decideStopWithState(repo.root, {
      harness: adapter.name,
      result,
      cap: hooksConfig.config.noProgressCap,
      session: payload.sessionId,
    });
    await catchUpPointer(repo, resolution.id, state, result.currentNode, env, say);
    if (decision.kind === 'block') return hooks.stopReply(decision.reason);
    if (decision.escalation) {
      const { node, reason } = decision.escalation;
      const findings = blockingFindings(result).map(findingWithFix);
      const file = await persistEscalation(repo, resolution.id, node ?? result.currentNode ?? repo.config.graph.start, reason, env, findings);
      say(`${decision.why}. Escalation recorded in ${file}; a person resolves it with \`the-loop graph force ${resolution.id} --to <node> --reason <why>\`.`);
    } else say(decision.why);
    return hooks.stopReply(undefined);
  }

  if (event.kind === 'edit') return contextReply(adapter, event, await checkEditedFile(repo, payload, env), env);

  const resolution = await resolveCurrentWorkItem(repo, values['work-item']);
  if (resolution.id === undefined) {
    say(resolution.why);
    return hooks.contextReply(event.name, undefined);
  }
  return contextReply(adapter, event, sessionContext(repo.config.graph, repo.config.specDir, await evaluateFromDisk(repo, resolution.id, { env: env.env, baseline: 'committed' })), env);
}

// After the stop is decided, a recorded pointer the artifacts left behind moves along the
// passing edges, so a work item that only waits on a person does not look out of step.
async function catchUpPointer(repo: Repo, id: string, state: GraphStateResult | undefined, derived: string | null, env: CommandEnv, say: (text: string) => void): Promise<void> {
  if (!state?.ok || recordedPointer(repo.config.graph, state.state.currentNode, derived) !== 'behind') return;
  let moved;
  try {
    moved = await catchUp(repo, id, env, { env: env.env });
  } catch (error) {
    // The stop decision stands either way: a pointer that could not move is only behind.
    say(`${id}: the recorded node could not be moved: ${error instanceof Error ? error.message : String(error)}`);
    return;
  }
  if (!moved) return;
  say(`${id}: the recorded node moved ${moved.from ?? '(start)'} → ${moved.state.currentNode ?? '(done)'} along passing gates.`);
  for (const report of moved.reports.filter((r) => r.status === 'failed')) say(`  ${report.kind} (${report.event} ${report.node}) failed: ${report.detail}`);
}

// A harness that reads no context from this event's reply gets the text on stderr, which its
// hook log shows; the stop hook carries the findings to the agent.
function contextReply(adapter: HarnessAdapter, event: HookEvent, text: string | undefined, env: CommandEnv): Record<string, unknown> {
  if (event.takesContext) return adapter.hooks.contextReply(event.name, text);
  if (text) env.stderr.write(`${text}\n`);
  return adapter.hooks.contextReply(event.name, undefined);
}

// A write under the spec root is validated at once; anywhere else it passes silently.
async function checkEditedFile(repo: Repo, payload: HookPayload, env: CommandEnv): Promise<string | undefined> {
  if (payload.filePath === null) return undefined;
  const absolute = resolve(payload.cwd ?? repo.root, payload.filePath);
  const rel = relative(repo.root, absolute).split(sep).join('/');
  const edited = editedArtifact(repo.config.specDir, rel);
  if (!edited) return undefined;
  try {
    await resolveWorkItem(repo, edited.workItem);
  } catch {
    return undefined;
  }
  const result = await evaluateFromDisk(repo, edited.workItem, { env: env.env, baseline: 'committed' });
  const findings = result.findings.filter((d) => d.file === edited.file);
  if (findings.length === 0) return undefined;
  return [
    `the-loop checked ${edited.file}: ${findings.length} finding${findings.length === 1 ? '' : 's'}.`,
    ...findings.map((d) => `- ${formatLocation(d)} ${d.severity === 'warning' ? 'warning ' : ''}${d.ruleId}: ${d.message}${d.fix ? ` Fix: ${d.fix}` : ''}`),
  ].join('\n');
}
