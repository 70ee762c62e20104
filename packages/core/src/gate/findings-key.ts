import { compareDiagnostics, type Diagnostic } from '../diagnostic.js';

/**
 * The canonical text of a set of findings: the same findings in any order give the same text,
 * and any change (a task ticked, a line moved, a new finding) a different one. Its digest is how
 * the stop hooks' no-progress cap and the graph runtime recognise the same findings twice running.
 */
export function findingsKey(findings: readonly Diagnostic[]): string {
  return JSON.stringify([...findings].sort(compareDiagnostics).map((d) => [d.ruleId, d.file, d.line ?? 0, d.column ?? 0, d.message]));
}
