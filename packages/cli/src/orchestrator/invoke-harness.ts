import type { HarnessAdapter, HarnessResult, ProcessResult } from '@the-loop/core';
import { withHooksOff } from '../harness/hooks-off.js';
import { harnessRunFailure } from '../harness/run-failure.js';
import { runOnPath } from '../process/run-process.js';
import { withScratchFile } from '../workspace/scratch.js';
import type { RunEvents } from './run-events.js';

/** Why the run's harness was started: the node's work, a review round, the fix after one, or a choice. */
export type Purpose = 'work' | 'review' | 'fix' | 'choice';

/** One headless run of the harness `the-loop run` drives. */
export interface HarnessCall {
  readonly node: string;
  readonly purpose: Purpose;
  readonly prompt: string;
  readonly model: string | undefined;
  readonly resume: string | undefined;
  /** The run may change the repository (the node's work and fixes); a review or a choice only reads. */
  readonly writes: boolean;
  readonly answerSchema?: Readonly<Record<string, unknown>> | undefined;
  readonly timeoutMs: number;
  /** For events: the attempt at the node this call is. */
  readonly attempt?: number | undefined;
}

/** What one harness run gave back: its result object, and why it failed when it did. */
export interface CallOutcome {
  readonly result: HarnessResult;
  readonly process: ProcessResult;
  /**
   * Why the run did not finish cleanly — not started, timed out (its process group killed),
   * killed, non-zero exit, or `is_error` — in the harness's own words where it gave some.
   * Undefined for a clean run; a clean run is still only as good as the gate says.
   */
  readonly failure: string | undefined;
  /** The process never started: retrying cannot help. */
  readonly notStarted: boolean;
}

export interface InvokeContext {
  readonly adapter: HarnessAdapter;
  readonly root: string;
  readonly env: NodeJS.ProcessEnv;
  readonly events: RunEvents;
  /** Told the harness's pid once it runs, so a run killed meanwhile can be cleaned up after; `harness.invoked` follows it. */
  readonly onSpawn?: ((pid: number) => Promise<void>) | undefined;
}

/**
 * Run the harness once, headless, in the repository root, through its adapter's one-shot argv
 * and the one process runner (a process group of its own, killed whole at the time limit),
 * with the-loop's own hooks stepped aside: the run is the loop here, not the Stop hook.
 */
export async function invokeHarness(context: InvokeContext, call: HarnessCall): Promise<CallOutcome> {
  const { adapter, events } = context;
  return withScratchFile(call.prompt, async (promptFile) => {
    const oneShot = adapter.oneShot({
      prompt: call.prompt,
      promptFile,
      model: call.model,
      outputFormat: 'json',
      writes: call.writes,
      resume: call.resume,
      answerSchema: call.answerSchema,
    });
    // `harness.invoked` is emitted once the pid is on record: whoever acts on the event (kills
    // the run, say) leaves a harness the next run can find.
    let spawned: Promise<void> = Promise.resolve();
    const process = await runOnPath({
      command: adapter.binary,
      args: oneShot.args,
      stdin: oneShot.stdin,
      cwd: context.root,
      env: withHooksOff(context.env),
      timeoutMs: call.timeoutMs,
      onSpawn: (pid) => {
        const invoked = {
          harness: adapter.name,
          purpose: call.purpose,
          ...(call.attempt !== undefined ? { attempt: call.attempt } : {}),
          model: call.model ?? null,
          resume: call.resume ?? null,
          timeoutSeconds: call.timeoutMs / 1000,
          pid,
        };
        const recorded = context.onSpawn ? context.onSpawn(pid).catch(() => undefined) : Promise.resolve();
        spawned = recorded.then(() => events.emit('harness.invoked', call.node, invoked));
      },
    });
    await spawned;
    const result = adapter.parseResult(process.stdout, process.exitCode ?? 1);
    const failure = harnessRunFailure({ command: adapter.binary, timeoutMs: call.timeoutMs, cwd: context.root }, process, result);
    events.emit('harness.exited', call.node, {
      harness: adapter.name,
      purpose: call.purpose,
      exitCode: process.exitCode,
      signal: process.signal,
      timedOut: process.timedOut,
      isError: result.isError,
      sessionId: result.sessionId,
      durationSeconds: Math.round(process.durationMs) / 1000,
      usage: { inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens, costUsd: result.usage.costUsd },
      failure: failure?.error ?? null,
    });
    return { result, process, failure: failure?.error, notStarted: process.spawnError !== undefined };
  });
}
