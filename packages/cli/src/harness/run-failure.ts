import { parseResultObject, reportsError, type HarnessResult, type ProcessRequest, type ProcessResult } from '@the-loop/core';

/** Why a harness run did not finish cleanly, as a stable code beside the words. */
export type FailureReason = 'binary-missing' | 'spawn-failed' | 'timeout' | 'exit-nonzero' | 'is-error';

/**
 * Why a harness (or critic) run failed — not found, not started, killed at its time limit with
 * its process group, a non-zero exit, or a result object reporting `is_error` — in the
 * harness's own words where it gave some; undefined for a run that finished cleanly. What a
 * clean run is worth is for its caller (a gate, a review) to decide.
 */
export function harnessRunFailure(request: Pick<ProcessRequest, 'command' | 'timeoutMs' | 'cwd'>, outcome: ProcessResult, parsed: Pick<HarnessResult, 'text' | 'isError'>): { reason: FailureReason; error: string } | undefined {
  if (outcome.spawnError === 'not-found') return { reason: 'binary-missing', error: `${request.command} was not found on PATH (or is not executable) from ${request.cwd}` };
  if (outcome.spawnError !== undefined) return { reason: 'spawn-failed', error: `${request.command} could not be started: ${outcome.spawnError}` };
  if (outcome.timedOut) return { reason: 'timeout', error: `timed out after ${request.timeoutMs / 1000} s; the process group was terminated` };
  if (outcome.exitCode !== 0) {
    const how = outcome.exitCode === null ? `signal ${outcome.signal ?? 'unknown'}` : `code ${outcome.exitCode}`;
    return { reason: 'exit-nonzero', error: `exited with ${how}${cause(outcome, parsed.text)}` };
  }
  if (parsed.isError) return { reason: 'is-error', error: `the harness reported an error: ${firstLine(parsed.text)}` };
  return undefined;
}

// Why a harness failed: the text of a result object that reports the error (Claude Code puts
// the cause there, and only a diagnostic tag on stderr), else the end of stderr.
function cause(outcome: ProcessResult, text: string): string {
  const payload = parseResultObject(outcome.stdout);
  const reported = payload !== undefined && reportsError(payload) ? firstLine(text) : '';
  return reported !== '' ? `: ${reported}` : tail(outcome.stderr);
}

function tail(stderr: string): string {
  const last = stderr.trim().split(/\r?\n/).slice(-3).join(' / ');
  return last === '' ? '' : `: ${last.slice(0, 500)}`;
}

function firstLine(text: string): string {
  return (text.trim().split(/\r?\n/, 1)[0] ?? '').slice(0, 500);
}
