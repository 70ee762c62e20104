import { relative, resolve, sep } from 'node:path';
import { closest, findingWithFix, formatLocation, recordedPointer, type GraphStateResult, type HarnessAdapter, type HookEvent, type HookPayload } from '@the-loop/core';
import { blockingFindings, DEFAULT_HOOKS_CONFIG, editedArtifact, parseHooksConfig, sessionContext, type StopDecision } from '@the-loop/hooks';
import { configurationError, unexpectedError, UsageError } from '../errors.js';
import { neutralize } from '../format/neutralize.js';
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
import { decideFailedStop, decideStopWithState } from '../state/stop-counters.js';
import { openCached } from '../cache/artifact-cache.js';

/** The `hook` command's help, naming the harnesses and events it is given. */
export function harnessHookUsage(adapters: readonly HarnessAdapter[]): string {
  const width = Math.max(0, ...adapters.map((a) => a.title.length)) + 9;
  return `Usage: the-loop hook <event> --harness ${adapters.map((a) => a.name).join('|')} [--work-item ID] [--repo DIR]

A harness hook: reads the harness's JSON payload on stdin and answers in its dialect on stdout.
${adapters.map((a) => `  ${`${a.title} events:`.padEnd(width)}${a.hooks.events.map((e) => e.name).join(', ')}`).join('\n')}
  --work-item ID      the work item (default: .the-loop/current, the branch name, or the only open item)
  --repo DIR          the repository (installed hooks pin it; else the project directory the harness names)
Exit codes: 0 answered (stdout holds the reply). A stop the-loop cannot decide in time, or at all,
is held with the reason, at most hooks.noProgressCap times in a row. Any other event that cannot
be answered exits 1 and the harness carries on. It never exits 2, which Claude Code reads as "block".`;
}

type Values = { readonly harness?: string | undefined; readonly 'work-item'?: string | undefined; readonly repo?: string | undefined };

/** What a stop hook has learnt so far: what counting a failure needs if the rest goes wrong. */
interface StopContext {
  root: string | undefined;
  payload: HookPayload | undefined;
  cap: number;
}

/** Answer one harness hook event. */
export async function runHarnessHook(args: readonly string[], env: CommandEnv): Promise<number> {
  let adapter: HarnessAdapter;
  let event: HookEvent;
  let values: Values;
  try {
    const usage = harnessHookUsage(env.adapters);
    const parsed = parseOptions(args, { harness: { type: 'string' }, 'work-item': { type: 'string' }, repo: { type: 'string' } }, usage);
    values = parsed.values;
    adapter = harnessNamed(env.adapters, values.harness, usage);
    const named = adapter.hooks.events.find((e) => e.name === parsed.positionals[0]);
    if (parsed.positionals.length !== 1 || named === undefined) {
      const names = adapter.hooks.events.map((e) => e.name);
      const guess = parsed.positionals.length === 1 ? closest(parsed.positionals[0] as string, names) : undefined;
      throw new UsageError(`${adapter.name} hook event must be one of ${names.join(', ')}; got ${parsed.positionals.length === 0 ? 'none' : `"${parsed.positionals.join(' ')}"`}${guess ? ` (did you mean "${guess}"?)` : ''}`);
    }
    event = named;
  } catch (error) {
    // Without a harness and an event there is no dialect to answer in: a broken hook command line.
    return cannotAnswer(error, env);
  }
  if (hooksAreOff(env.env)) {
    env.stderr.write(`the-loop: ${HOOKS_OFF_NOTE}\n`);
    return reply(env, {});
  }
  if (event.kind === 'stop') return reply(env, await answerStop(adapter, values, env));
  try {
    return reply(env, await answerEvent(adapter, event, values, env));
  } catch (error) {
    return cannotAnswer(error, env);
  }
}

function reply(env: CommandEnv, answer: Record<string, unknown>): number {
  env.stdout.write(`${JSON.stringify(answer)}\n`);
  return 0;
}

// An event that carries no gate (context, an edit) cannot hold anything: say why and let the harness carry on.
function cannotAnswer(error: unknown, env: CommandEnv): number {
  env.stderr.write(`the-loop hook: ${problemOf(error, env)}\nthe-loop hook: not answered this time; fix the error above (\`the-loop doctor\` checks the set-up).\n`);
  return 1;
}

function problemOf(error: unknown, env: CommandEnv): string {
  return error instanceof UsageError ? error.message : `internal error: ${unexpectedError(error, env.env)}`;
}

/**
 * A stop, answered whatever happens (decision 070): the gate's decision when it can be reached
 * within the deadline, else a hold that names why, counted so that a broken gate never traps
 * a session.
 */
async function answerStop(adapter: HarnessAdapter, values: Values, env: CommandEnv): Promise<Record<string, unknown>> {
  const context: StopContext = { root: undefined, payload: undefined, cap: DEFAULT_HOOKS_CONFIG.noProgressCap };
  const deadline = new Deadline(DEFAULT_HOOKS_CONFIG.stopDeadlineSeconds);
  const say = (text: string): void => void env.stderr.write(`the-loop: ${text}\n`);
  let decision: StopDecision;
  try {
    const work = decideStopEvent(adapter, values, env, context, deadline, say);
    // Past the deadline nobody waits for it; what it ends with then is not an unhandled error.
    work.catch(() => undefined);
    const decided = await Promise.race([work, deadline.reached]);
    if (decided === 'deadline') {
      decision = await failedStop(adapter, context, env, say, {
        problem: `deciding took longer than ${deadline.seconds} s (hooks.stopDeadlineSeconds)`,
        hint: `write the work item's id to .the-loop/current, so the hook checks that one item, or raise hooks.stopDeadlineSeconds (keep it under the harness's own hook timeout).`,
      });
    } else decision = decided;
  } catch (error) {
    decision = await failedStop(adapter, context, env, say, {
      problem: problemOf(error, env),
      hint: 'fix what it names if it is a file in this repository (a configuration, a state file); if it is not yours to fix, tell the user that the-loop cannot check the work (`the-loop doctor` shows why).',
    });
  } finally {
    deadline.cancel();
  }
  if (decision.kind === 'block') return adapter.hooks.stopReply(neutralize(decision.reason));
  return adapter.hooks.stopReply(undefined);
}

function failedStop(adapter: HarnessAdapter, context: StopContext, env: CommandEnv, say: (text: string) => void, why: { problem: string; hint: string }): Promise<StopDecision> {
  say(`cannot decide this stop: ${why.problem}`);
  return decideFailedStop(
    context.root,
    { harness: adapter.name, ...why, cap: context.cap, session: context.payload?.sessionId ?? null, continuing: context.payload?.continuing ?? false },
    say,
  ).then((decision) => {
    if (decision.kind === 'allow') say(decision.why);
    return decision;
  });
}

async function decideStopEvent(adapter: HarnessAdapter, values: Values, env: CommandEnv, context: StopContext, deadline: Deadline, say: (text: string) => void): Promise<StopDecision> {
  const open = async (root: string): Promise<{ repo: Repo; cap: number }> => {
    context.root = root;
    const repo = await openCached((options) => loadRepo(root, options), env.env);
    const hooksConfig = parseHooksConfig(repo.config.source);
    if (!hooksConfig.ok) throw configurationError('the hooks configuration is invalid', hooksConfig.issues);
    context.cap = hooksConfig.config.noProgressCap;
    deadline.set(hooksConfig.config.stopDeadlineSeconds);
    return { repo, cap: hooksConfig.config.noProgressCap };
  };
  // A pinned repository is opened before the payload is read, so its deadline and cap apply
  // to a payload that never ends, and a payload that cannot be read is still counted.
  const pinned = declaredRoot(adapter, values, undefined, env);
  let opened = pinned === undefined ? undefined : await open(pinned);
  if (opened === undefined) context.root = await projectRoot(adapter, values, undefined, env);
  const payload = await readPayload(adapter, env);
  context.payload = payload;
  if (opened === undefined) opened = await open(await projectRoot(adapter, values, payload, env));
  const { repo, cap } = opened;
  const allow = (why: string): StopDecision => ({ kind: 'allow', why, counter: undefined });

  if (payload.turnStatus !== null && payload.turnStatus !== 'completed') {
    say(`the turn ended with status "${payload.turnStatus}"; no follow-up`);
    return allow('');
  }
  const resolution = await resolveCurrentWorkItem(repo, values['work-item']);
  if (resolution.id === undefined) {
    say(`${resolution.why} Allowing the stop.`);
    return allow('');
  }
  // An item graph state has escalated waits on a person (`graph force`): never push on.
  const state = await readGraphState(repo, resolution.id);
  if (state?.ok && state.state.escalated) {
    say(`${resolution.id} is escalated at "${state.state.escalated.node}" (${state.state.escalated.reason}); a person resolves it. Allowing the stop.`);
    return allow('');
  }
  // Baseline entries the session added itself accept nothing here (docs/hooks.md). The state
  // just read is the one evaluated: the file is not read and checked a second time.
  const result = await evaluateFromDisk(repo, resolution.id, { env: env.env, baseline: 'committed', ...(state?.ok ? { state: state.state } : {}) });
  const decision = await decideStopWithState(repo.root, { harness: adapter.name, result, cap, session: payload.sessionId }, say);
  await catchUpPointer(repo, resolution.id, state, result.currentNode, env, say);
  if (decision.kind === 'block') return decision;
  if (decision.escalation) {
    const { node, reason } = decision.escalation;
    const findings = blockingFindings(result).map(findingWithFix);
    const file = await persistEscalation(repo, resolution.id, node ?? result.currentNode ?? repo.config.graph.start, reason, env, findings);
    say(`${decision.why}. Escalation recorded in ${file}; a person resolves it with \`the-loop graph force ${resolution.id} --to <node> --reason <why>\`.`);
  } else say(decision.why);
  return decision;
}

async function answerEvent(adapter: HarnessAdapter, event: HookEvent, values: Values, env: CommandEnv): Promise<Record<string, unknown>> {
  const payload = await readPayload(adapter, env);
  const root = await projectRoot(adapter, values, payload, env);
  const repo = await openCached((options) => loadRepo(root, options), env.env);
  const hooksConfig = parseHooksConfig(repo.config.source);
  if (!hooksConfig.ok) throw configurationError('the hooks configuration is invalid', hooksConfig.issues);
  if (event.kind === 'edit') return contextReply(adapter, event, await checkEditedFile(repo, payload, env), env);
  const resolution = await resolveCurrentWorkItem(repo, values['work-item']);
  if (resolution.id === undefined) {
    env.stderr.write(`the-loop: ${resolution.why}\n`);
    return adapter.hooks.contextReply(event.name, undefined);
  }
  return contextReply(adapter, event, sessionContext(repo.config.graph, repo.config.specDir, await evaluateFromDisk(repo, resolution.id, { env: env.env, baseline: 'committed' })), env);
}

async function readPayload(adapter: HarnessAdapter, env: CommandEnv): Promise<HookPayload> {
  const parsed = adapter.hooks.parsePayload(await readStdin(env));
  if (!parsed.ok) throw new UsageError(parsed.error);
  return parsed.payload;
}

/**
 * The repository the hook checks (decision 072): the one the installed command pins with
 * `--repo`, else the project directory the harness names, else the directory the hook was
 * started in (climbing to the project root). The payload's `cwd` is where the session happens
 * to be; it never moves the check.
 */
async function projectRoot(adapter: HarnessAdapter, values: Values, payload: HookPayload | undefined, env: CommandEnv): Promise<string> {
  return declaredRoot(adapter, values, payload, env) ?? findRepoRoot(env.cwd);
}

function declaredRoot(adapter: HarnessAdapter, values: Values, payload: HookPayload | undefined, env: CommandEnv): string | undefined {
  const variable = adapter.hooks.projectDirVariable;
  const fromHarness = variable === undefined ? undefined : env.env[variable] || undefined;
  const declared = values.repo ?? fromHarness ?? payload?.projectDir ?? undefined;
  return declared === undefined ? undefined : resolve(env.cwd, declared);
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
  const safe = text === undefined ? undefined : neutralize(text);
  if (event.takesContext) return adapter.hooks.contextReply(event.name, safe);
  if (safe) env.stderr.write(`${safe}\n`);
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

/** When a stop hook stops deciding: measured from its start, moved once the configuration is read. */
class Deadline {
  // A monotonic clock that needs no module: the global `performance` loads perf_hooks on first use.
  private readonly started = process.hrtime.bigint();
  private timer: NodeJS.Timeout | undefined;
  private fire: (value: 'deadline') => void = () => undefined;
  readonly reached: Promise<'deadline'> = new Promise((resolve) => (this.fire = resolve));
  seconds: number;

  constructor(seconds: number) {
    this.seconds = seconds;
    this.set(seconds);
  }

  set(seconds: number): void {
    this.seconds = seconds;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.fire('deadline'), Math.max(0, seconds * 1000 - Number(process.hrtime.bigint() - this.started) / 1e6));
  }

  cancel(): void {
    clearTimeout(this.timer);
  }
}
