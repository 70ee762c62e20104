import type { SourceIssue } from '@the-loop/core';

/** A usage or configuration error: exit 2, nothing evaluated or spawned. */
export class UsageError extends Error {
  readonly exitCode = 2;
}

/** A configuration file that is wrong: every problem on its own `file:line:col  message` line under a title. */
export function configurationError(title: string, issues: readonly SourceIssue[]): UsageError {
  return new UsageError([`${title}:`, ...issues.map((i) => `  ${i.file}:${i.line}:${i.column}  ${i.message}`)].join('\n'));
}

/**
 * An unexpected error as a user sees it: one line, the message only. The stack is for whoever
 * debugs the-loop and is shown only with THE_LOOP_DEBUG=1.
 */
export function unexpectedError(error: unknown, env: Readonly<Record<string, string | undefined>>): string {
  if (env['THE_LOOP_DEBUG'] === '1' && error instanceof Error && error.stack) return error.stack;
  const message = error instanceof Error ? error.message : String(error);
  return `${message.split('\n', 1)[0] || 'an unknown error'} (THE_LOOP_DEBUG=1 shows where)`;
}
