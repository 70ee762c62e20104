import { type Diagnostic, type WorkItemResult } from '@the-loop/core';

/** GitHub Actions workflow commands: one `::error`/`::warning` annotation per finding. */
export function toGithubAnnotations(results: readonly WorkItemResult[]): string {
  const lines = results.flatMap((result) => result.findings.map((d) => annotation(result.workItem, d)));
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

function annotation(workItem: string, d: Diagnostic): string {
  const props = [`file=${escapeProperty(d.file)}`];
  if (d.line !== undefined) props.push(`line=${d.line}`, `col=${d.column ?? 1}`);
  props.push(`title=${escapeProperty(`the-loop ${d.ruleId} (${workItem}${d.node ? ` · ${d.node}` : ''})`)}`);
  const text = `${d.message}${d.fix ? ` Fix: ${d.fix}` : ''}`;
  return `::${d.severity === 'error' ? 'error' : 'warning'} ${props.join(',')}::${escapeData(text)}`;
}

// The escaping GitHub's toolkit applies to workflow-command data and properties.
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** A one-line plain summary that follows the annotations in the log. */
export function githubSummary(results: readonly WorkItemResult[], failedIds: readonly string[]): string {
  const where = failedIds.length > 0 ? `; blocking: ${failedIds.join(', ')}` : '';
  return `the-loop: ${results.length} work item${results.length === 1 ? '' : 's'} checked${where}\n`;
}
