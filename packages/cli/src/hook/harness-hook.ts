import { stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { formatLocation } from '@the-loop/core';
import { CLAUDE_HOOK_EVENTS, claudeContextReply, claudeStopReply, parseClaudePayload } from '@the-loop/adapter-claude';
import { CURSOR_HOOK_EVENTS, cursorSessionStartReply, cursorStopReply, parseCursorPayload } from '@the-loop/adapter-cursor';
import { editedArtifact, parseHooksConfig, sessionContext } from '@the-loop/hooks';
import { withCache } from '../cache/artifact-cache.js';
import { UsageError } from '../errors.js';
import { resolveCurrentWorkItem } from '../io/current-work-item.js';
import { evaluateFromDisk } from '../io/evaluate.js';
import { readGraphState } from '../io/graph-state-store.js';
import { resolveWorkItem } from '../io/read-work-item.js';
import { formatIssues, openRepo, type Repo } from '../io/repo.js';
import { oneOf, parseOptions, type CommandEnv } from '../main.js';
import { readStdin } from './read-stdin.js';
import { persistEscalation } from './persist-escalation.js';
import { decideStopWithState } from './stop-state.js';

export const HARNESS_HOOK_USAGE = `Usage: the-loop hook <event> --harness claude|cursor [--work-item ID] [--repo DIR]

A harness hook: reads the harness's JSON payload on stdin and answers in its dialect on stdout.
  Claude Code events: ${CLAUDE_HOOK_EVENTS.join(', ')}
  Cursor events:      ${CURSOR_HOOK_EVENTS.join(', ')}
  --work-item ID      the work item (default: .the-loop/current, the branch name, or the only open item)
  --repo DIR          the repository (default: $CLAUDE_PROJECT_DIR, the payload's workspace or cwd)
Exit codes: 0 answered (stdout holds the reply) · 1 the hook could not run; the harness carries on
(a broken gate must never trap a session). It never exits 2, which Claude Code reads as "block".`;

type Harness = 'claude' | 'cursor';

interface Payload {
  readonly sessionId: string | null;
  readonly root: string | null;
  readonly cwd: string | null;
  readonly filePath: string | null;
  readonly status: string | null;
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
  const { values, positionals } = parseOptions(
    args,
    { harness: { type: 'string' }, 'work-item': { type: 'string' }, repo: { type: 'string' } },
    HARNESS_HOOK_USAGE,
  );
  if (values.harness === undefined) throw new UsageError(`--harness claude|cursor is required\n${HARNESS_HOOK_USAGE}`);
  const harness = oneOf<Harness>(values.harness, ['claude', 'cursor'], 'claude', '--harness');
  const event = positionals[0];
  const known: readonly string[] = harness === 'claude' ? CLAUDE_HOOK_EVENTS : CURSOR_HOOK_EVENTS;
  if (positionals.length !== 1 || event === undefined || !known.includes(event)) {
    throw new UsageError(`${harness} hook event must be one of ${known.join(', ')}; got ${positionals.length === 0 ? 'none' : `"${positionals.join(' ')}"`}`);
  }
  const payload = readPayload(harness, await readStdin(env.stdin));
  const declared = values.repo ?? (harness === 'claude' ? env.env['CLAUDE_PROJECT_DIR'] || undefined : undefined) ?? payload.root ?? undefined;
  // Without a declared root, the session may sit in a subdirectory: climb to the project.
  const root = declared ?? (await findProjectRoot(resolve(env.cwd, payload.cwd ?? '.')));
  const repo = withCache(await openRepo(env.cwd, root), env.env);
  const hooksConfig = parseHooksConfig(repo.config.source);
  if (!hooksConfig.ok) throw new UsageError(formatIssues('the hooks configuration is invalid', hooksConfig.issues));
  const say = (text: string): void => void env.stderr.write(`the-loop: ${text}\n`);

  if (event === 'Stop' || event === 'stop') {
    if (harness === 'cursor' && payload.status !== null && payload.status !== 'completed') {
      say(`the turn ended with status "${payload.status}"; no follow-up`);
      return cursorStopReply(undefined);
    }
    const resolution = await resolveCurrentWorkItem(repo, values['work-item']);
    if (resolution.id === undefined) {
      say(`${resolution.why} Allowing the stop.`);
      return {};
    }
    // An item graph state has escalated waits on a person (`graph force`): never push on.
    const state = await readGraphState(repo, resolution.id);
    if (state.kind === 'ok' && state.state.escalated) {
      say(`${resolution.id} is escalated at "${state.state.escalated.node}" (${state.state.escalated.reason}); a person resolves it. Allowing the stop.`);
      return {};
    }
    const result = await evaluateFromDisk(repo, resolution.id);
    const decision = await decideStopWithState(repo.root, {
      harness,
      result,
      cap: hooksConfig.config.noProgressCap,
      session: payload.sessionId,
    });
    if (decision.kind === 'allow') {
      if (decision.escalation) {
        const { node, reason } = decision.escalation;
        const file = await persistEscalation(repo, resolution.id, node ?? result.currentNode ?? repo.config.graph.start, reason, env);
        say(`${decision.why}. Escalation recorded in ${file}; a person resolves it with \`the-loop graph force\`.`);
      } else say(decision.why);
      return harness === 'claude' ? claudeStopReply(undefined) : cursorStopReply(undefined);
    }
    return harness === 'claude' ? claudeStopReply({ reason: decision.reason }) : cursorStopReply(decision.reason);
  }

  if (event === 'PostToolUse' || event === 'afterFileEdit') {
    const text = await checkEditedFile(repo, payload);
    if (harness === 'claude') return claudeContextReply('PostToolUse', text);
    // Cursor takes no reply to afterFileEdit; its hook log shows stderr, and the stop hook carries the findings to the agent.
    if (text) env.stderr.write(`${text}\n`);
    return {};
  }

  const resolution = await resolveCurrentWorkItem(repo, values['work-item']);
  if (resolution.id === undefined) {
    say(resolution.why);
    return {};
  }
  const text = sessionContext(repo.config.graph, repo.config.specDir, await evaluateFromDisk(repo, resolution.id));
  if (harness === 'cursor') return cursorSessionStartReply(text);
  return claudeContextReply(event as 'SessionStart' | 'UserPromptSubmit', text);
}

/** The nearest directory at or above `start` holding `.the-loop/` or `.git`; `start` itself when none does. */
async function findProjectRoot(start: string): Promise<string> {
  for (let dir = start; ; dir = dirname(dir)) {
    for (const marker of ['.the-loop', '.git']) if (await stat(join(dir, marker)).catch(() => undefined)) return dir;
    if (dirname(dir) === dir) return start;
  }
}

function readPayload(harness: Harness, text: string): Payload {
  if (harness === 'claude') {
    const parsed = parseClaudePayload(text);
    if (!parsed.ok) throw new UsageError(parsed.error);
    const p = parsed.payload;
    return { sessionId: p.sessionId, root: null, cwd: p.cwd, filePath: p.filePath, status: null };
  }
  const parsed = parseCursorPayload(text);
  if (!parsed.ok) throw new UsageError(parsed.error);
  const p = parsed.payload;
  return { sessionId: p.sessionId, root: p.workspaceRoot, cwd: null, filePath: p.filePath, status: p.status };
}

// A write under the spec root is validated at once; anywhere else it passes silently.
async function checkEditedFile(repo: Repo, payload: Payload): Promise<string | undefined> {
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
  const result = await evaluateFromDisk(repo, edited.workItem);
  const findings = result.findings.filter((d) => d.file === edited.file);
  if (findings.length === 0) return undefined;
  return [
    `the-loop checked ${edited.file}: ${findings.length} finding${findings.length === 1 ? '' : 's'}.`,
    ...findings.map((d) => `- ${formatLocation(d)} ${d.severity === 'warning' ? 'warning ' : ''}${d.ruleId}: ${d.message}${d.fix ? ` Fix: ${d.fix}` : ''}`),
  ].join('\n');
}
