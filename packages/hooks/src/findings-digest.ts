import { createHash } from 'node:crypto';
import { compareDiagnostics, type Diagnostic } from '@the-loop/core';

/**
 * A digest of what is unmet: the same findings give the same digest whatever order they
 * arrive in, and any change (a task ticked, a line moved, a new finding) gives a new one.
 * The no-progress cap counts repeats of this digest, not stop events.
 */
export function digestFindings(findings: readonly Diagnostic[]): string {
  const canonical = [...findings].sort(compareDiagnostics).map((d) => [d.ruleId, d.file, d.line ?? 0, d.column ?? 0, d.message]);
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}
