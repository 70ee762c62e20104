import { randomUUID } from 'node:crypto';
import { parseModelRouting, parseRuntimeConfig, requestIdProblem, runExitCode, type HarnessAdapter, type RunResult } from '@the-loop/core';
import { configurationError, UsageError } from '../errors.js';
import { formatJson } from '../format/json.js';
import { harnessNamed } from '../harness/adapters.js';
import { findExecutable } from '../process/find-executable.js';
import { readReferences } from '../orchestrator/references.js';
import { runEvents } from '../orchestrator/run-events.js';
import { storedRun, storeRun, withRunLock } from '../orchestrator/run-records.js';
import { runWorkItem } from '../orchestrator/step-loop.js';
import { resolveWorkItem } from '../workspace/read-work-item.js';
import { openRepo, type Repo } from '../workspace/repo.js';
import { loadReviews } from '../workspace/reviews.js';
import { oneOf, parseOptions, type Command, type CommandEnv } from './command.js';

/** The harness a run drives when neither `--harness` nor `workflow.harness` names one. */
const DEFAULT_HARNESS = 'claude';
/** Nodes one run works at most unless `--max-nodes` says otherwise: a loop in a graph ends. */
export const DEFAULT_MAX_NODES = 100;

function usage(env: CommandEnv): string {
  return `Usage: the-loop run <work-item> [--harness ${env.adapters.map((a) => a.name).join('|')}] [--model M] [--max-nodes N]
                    [--budget-seconds S] [--request-id ID] [--format json|text] [--repo DIR]

Drives the work item through its graph from the recorded node: one headless harness run per
step, the gate deciding after each, only declared edges taken. Stops when the item parks on a
person, escalates, leaves the graph, fails, or reaches --max-nodes (default ${DEFAULT_MAX_NODES}) or
--budget-seconds. The harness is --harness, else workflow.harness, else ${DEFAULT_HARNESS}; it runs in the
repository root. --request-id keeps the result in .the-loop/local/runs/<ID>.json and returns it
again, byte for byte and without running anything, when the same id is given again.
stdout: one JSON document {schemaVersion, workItem, requestId, status, currentNode, nodesRun, usage, reason}
(--format text: a summary). stderr: progress events as NDJSON, or progress lines at a terminal.
Exit codes: 0 parked or complete · 1 escalated, failed or budget-exhausted · 2 usage or configuration error (nothing run)`;
}

export const command: Command = {
  summary: 'drive a work item through the graph, one headless harness run per node',
  usage,
  async run(args, env) {
    const help = usage(env);
    const { values, positionals } = parseOptions(
      args,
      {
        repo: { type: 'string' },
        harness: { type: 'string' },
        model: { type: 'string' },
        'max-nodes': { type: 'string' },
        'budget-seconds': { type: 'string' },
        'request-id': { type: 'string' },
        format: { type: 'string' },
      },
      help,
    );
    if (positionals.length !== 1) throw new UsageError(`run takes exactly one work-item id\n${help}`);
    const id = positionals[0] as string;
    const format = oneOf(values.format, ['json', 'text'] as const, 'json', '--format');
    const maxNodes = values['max-nodes'] === undefined ? DEFAULT_MAX_NODES : wholeNumber(values['max-nodes'], '--max-nodes');
    const budgetSeconds = values['budget-seconds'] === undefined ? undefined : seconds(values['budget-seconds'], '--budget-seconds');
    if (values.model !== undefined && values.model.trim() === '') throw new UsageError('--model is empty');
    const requestProblem = values['request-id'] === undefined ? undefined : requestIdProblem(values['request-id']);
    if (requestProblem) throw new UsageError(requestProblem);

    const repo = await openRepo(env.cwd, values.repo);
    await resolveWorkItem(repo, id);
    const print = (document: string, result: RunResult) => env.stdout.write(format === 'json' ? document : summary(result));

    if (values['request-id'] !== undefined) {
      const stored = await storedRun(repo, values['request-id']);
      if (stored !== undefined) return replay(stored, id, values['request-id'], print);
    }
    const adapter = harnessFor(repo, values.harness, env, help);
    const routing = parseModelRouting(repo.config.source);
    if (!routing.ok) throw configurationError('the configuration is invalid', routing.issues);
    const runtime = parseRuntimeConfig(repo.config.source);
    if (!runtime.ok) throw configurationError('the configuration is invalid', runtime.issues);
    const reviews = loadReviews(repo);
    if ((await findExecutable(adapter.binary, env.env, repo.root)) === undefined) {
      throw new UsageError(`${adapter.binary} (${adapter.title}) was not found on PATH; install it or choose another harness with --harness`);
    }
    for (const node of repo.config.graph.nodes) {
      await readReferences(repo.root, node).catch((error: Error) => {
        throw new UsageError(`${error.message} (workflow.graph in ${repo.config.file ?? 'the default graph'})`);
      });
    }

    const requestId = values['request-id'] ?? randomUUID();
    const events = runEvents({ stream: env.stderr, env: env.env, requestId, workItem: id, now: env.now });
    const result = await withRunLock(repo, id, () =>
      runWorkItem({ repo, id, adapter, adapters: env.adapters, model: values.model, routing: routing.routing, reviews, maxNodes, budgetSeconds, requestId, env: env.env, now: env.now, events }),
    );
    const document = formatJson(result);
    // Kept before it is printed: a caller that saw it can always get it again.
    if (values['request-id'] !== undefined) await storeRun(repo, requestId, document);
    print(document, result);
    return runExitCode(result.status);
  },
};

// The adapter `--harness` names, else the configuration's `workflow.harness` (an unknown name
// there is a configuration error at its line), else the default.
function harnessFor(repo: Repo, option: string | undefined, env: CommandEnv, help: string): HarnessAdapter {
  if (option !== undefined) return harnessNamed(env.adapters, option, help);
  const configured = repo.config.harness;
  if (configured === undefined) return harnessNamed(env.adapters, DEFAULT_HARNESS, help);
  const adapter = env.adapters.find((candidate) => candidate.name === configured);
  if (adapter) return adapter;
  const at = repo.config.source?.positionOf(['workflow', 'harness']) ?? { line: 1, column: 1 };
  throw configurationError('the configuration is invalid', [
    { file: repo.config.file ?? '.the-loop/harness-config.yaml', ...at, message: `workflow.harness: no harness named "${configured}" (known: ${env.adapters.map((a) => a.name).join(', ')})` },
  ]);
}

// A repeated request id gets the stored document back and runs nothing.
function replay(stored: string, id: string, requestId: string, print: (document: string, result: RunResult) => void): number {
  let result: RunResult;
  try {
    result = JSON.parse(stored) as RunResult;
  } catch {
    throw new UsageError(`.the-loop/local/runs/${requestId}.json is not a stored run (delete it to run again)`);
  }
  if (result.workItem !== id) throw new UsageError(`request id ${requestId} was used for ${result.workItem}, not ${id}`);
  print(stored, result);
  return runExitCode(result.status);
}

function summary(result: RunResult): string {
  const lines = [
    `${result.workItem}: ${result.status} at ${result.currentNode ?? '(left the graph)'} — ${result.reason}`,
    ...result.nodesRun.map((n) => `  ${n.node.padEnd(24)} ${n.outcome.padEnd(16)} ${n.attempts} attempt${n.attempts === 1 ? '' : 's'}${n.sessionId ? `  session ${n.sessionId}` : ''}`),
    `  usage: ${result.usage.inputTokens ?? '—'} input tokens, ${result.usage.outputTokens ?? '—'} output tokens, ${result.usage.costUsd === null ? 'cost not reported' : `$${result.usage.costUsd}`}`,
    `  request ${result.requestId}`,
  ];
  return `${lines.join('\n')}\n`;
}

function wholeNumber(text: string, option: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value < 1) throw new UsageError(`${option} must be a whole number of at least 1; got "${text}"`);
  return value;
}

function seconds(text: string, option: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value <= 0) throw new UsageError(`${option} must be a finite number of seconds greater than 0; got "${text}"`);
  return value;
}
