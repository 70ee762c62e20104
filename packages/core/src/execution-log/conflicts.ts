import type { ConflictEntry } from '../graph-state/effects.js';

/** The file beside the artifacts where escalations are written down for the person who resolves them. */
export const CONFLICTS_FILE = 'conflicts.md';

const HEADER = [
  '# Conflicts',
  '',
  'Escalations the-loop recorded for this work item. Each one waits on a person: fix what is',
  'listed, then move the work item on with `the-loop graph force <id> --to <node> --reason <why>`.',
];

/** `conflicts.md` with one more escalation entry at its end; `text` is undefined when the file does not exist yet. */
export function appendConflict(text: string | undefined, entry: ConflictEntry): string {
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
  ];
  const before = text === undefined || text.trim() === '' ? HEADER.join(eol) : text.replace(/\s+$/, '');
  return `${before}${eol}${eol}${lines.join(eol)}${eol}`;
}

function oneLine(text: string): string {
  return text.replace(/\s*\r?\n\s*/g, ' ').trim();
}
