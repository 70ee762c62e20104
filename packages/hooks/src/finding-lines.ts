import type { Diagnostic } from '@the-loop/core';

// Enough for an agent to start on; `the-loop check <id>` lists everything. A file of thousands
// of unticked tasks must not become megabytes of hook reply in the agent's context.
const MAX_LISTED = 20;

/** One `- …` line per finding, at most MAX_LISTED, then a line saying how many more and where to see them. */
export function findingLines(workItem: string, findings: readonly Diagnostic[], line: (d: Diagnostic) => string): string[] {
  const lines = findings.slice(0, MAX_LISTED).map((d) => `- ${line(d)}`);
  if (findings.length > MAX_LISTED) lines.push(`- … ${findings.length - MAX_LISTED} more: run \`the-loop check ${workItem}\``);
  return lines;
}
