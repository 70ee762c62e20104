import type { FailOn } from '@the-loop/hooks';
import { type Diagnostic, type WorkItemResult } from '@the-loop/core';
import { levelOf, type Level } from './level.js';

const COMMAND: Record<Level, string> = { error: 'error', warning: 'warning', note: 'notice' };

/**
 * GitHub Actions workflow commands for one work item: an `::error`, `::warning` or `::notice`
 * annotation per finding, a line each, rendered by the thread that evaluated it.
 */
export function resultAnnotations(result: WorkItemResult, failOn: FailOn): string {
  return result.findings.map((d) => `${annotation(result.workItem, d, levelOf(result, d, failOn))}\n`).join('');
}

/** The annotations of findings about the repository as a whole, after every work item's. */
export function repositoryAnnotations(findings: readonly Diagnostic[]): string {
  return findings.map((d) => `${annotation(undefined, d, d.severity === 'error' ? 'error' : 'warning')}\n`).join('');
}

function annotation(workItem: string | undefined, d: Diagnostic, level: Level): string {
  const props = [`file=${escapeProperty(d.file)}`];
  if (d.line !== undefined) props.push(`line=${d.line}`, `col=${d.column ?? 1}`);
  const about = [workItem, d.node, d.baselined === true ? 'baselined' : undefined].filter(Boolean).join(' · ');
  props.push(`title=${escapeProperty(`the-loop ${d.ruleId}${about === '' ? '' : ` (${about})`}`)}`);
  const text = `${d.message}${d.fix ? ` Fix: ${d.fix}` : ''}`;
  return `::${COMMAND[level]} ${props.join(',')}::${escapeData(text)}`;
}

// The escaping GitHub's toolkit applies to workflow-command data and properties.
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

// A summary names this many blocking work items at most: it is one line of the log.
const NAMED = 20;

/** A one-line plain summary that follows the annotations in the log: how many were checked, and the first of those that block. */
export function githubSummary(count: number, failedIds: readonly string[]): string {
  const more = failedIds.length - NAMED;
  const named = more > 0 ? `${failedIds.slice(0, NAMED).join(', ')} and ${more} more` : failedIds.join(', ');
  const where = failedIds.length > 0 ? `; blocking: ${named}` : '';
  return `the-loop: ${count} work item${count === 1 ? '' : 's'} checked${where}\n`;
}
