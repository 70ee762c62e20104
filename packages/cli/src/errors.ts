import type { SourceIssue } from '@the-loop/core';

/** A usage or configuration error: exit 2, nothing evaluated or spawned. */
export class UsageError extends Error {
  readonly exitCode = 2;
}

/** A configuration file that is wrong: every problem on its own `file:line:col  message` line under a title. */
export function configurationError(title: string, issues: readonly SourceIssue[]): UsageError {
  return new UsageError([`${title}:`, ...issues.map((i) => `  ${i.file}:${i.line}:${i.column}  ${i.message}`)].join('\n'));
}
