import { formatLocation, type Diagnostic } from '../diagnostic.js';

// Enough for an agent to start on; `the-loop check <id>` lists everything. A file of thousands
// of unticked tasks must not become megabytes of hook reply or prompt in the agent's context.
const MAX_LISTED = 20;

/** One `- …` line per finding, at most MAX_LISTED, then a line saying how many more and where to see them. */
export function findingLines<T>(workItem: string, findings: readonly T[], line: (d: T) => string): string[] {
  const lines = findings.slice(0, MAX_LISTED).map((d) => `- ${line(d)}`);
  if (findings.length > MAX_LISTED) lines.push(`- … ${findings.length - MAX_LISTED} more: run \`the-loop check ${workItem}\``);
  return lines;
}

/** A finding as an agent reads it: where, which rule, what, and the fix when there is one. */
export function findingWithFix(d: Diagnostic): string {
  return `${formatLocation(d)} ${d.ruleId}: ${d.message}${d.fix ? ` Fix: ${d.fix}` : ''}`;
}
