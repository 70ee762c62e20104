import type { ConflictEntry } from '../graph-state/effects.js';

/** The file beside the artifacts where escalations are written down for the person who resolves them. */
export const CONFLICTS_FILE = 'conflicts.md';

function header(workItem: string): string[] {
  return [
    '# Conflicts',
    '',
    `Escalations the-loop recorded for ${workItem}. Each one waits on a person: fix what is listed,`,
    'then move the work item on with the command its entry gives, or send it to another node.',
  ];
}

/**
 * `conflicts.md` of work item `workItem` with one more escalation entry at its end; `text` is
 * undefined when the file does not exist yet. The entry names the command that resolves it.
 */
export function appendConflict(text: string | undefined, workItem: string, entry: ConflictEntry): string {
  const eol = text?.includes('\r\n') ? '\r\n' : '\n';
  const list = (items: readonly string[], none: string) => (items.length > 0 ? items.map((item) => `  - ${oneLine(item)}`) : [`  - ${none}`]);
  const lines = [
    `## ${entry.at}: escalated at ${entry.node}`,
    '',
    `- Reason: ${oneLine(entry.reason)}`,
    `- Unmet attempts: ${entry.attempts}`,
    '- Findings:',
    ...list(entry.findings, '(none recorded)'),
    '- Tried:',
    ...list(entry.tried, '(not recorded: the escalation came from outside an orchestrated run)'),
    `- Resolve: \`the-loop graph force ${workItem} --to ${entry.node} --reason "<what was fixed>"\` moves the work item back to ${entry.node}; name another node to send it there instead.`,
  ];
  const before = text === undefined || text.trim() === '' ? header(workItem).join(eol) : text.replace(/\s+$/, '');
  return `${before}${eol}${eol}${lines.join(eol)}${eol}`;
}

function oneLine(text: string): string {
  return text.replace(/\s*\r?\n\s*/g, ' ').trim();
}
