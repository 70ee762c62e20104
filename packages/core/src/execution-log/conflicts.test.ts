import { describe, expect, it } from 'vitest';
import { parseArtifact } from '../artifact/parse-artifact.js';
import { appendConflict } from './conflicts.js';

const entry = {
  at: '2026-03-01T10:00:00.000Z',
  node: 'design',
  attempts: 3,
  reason: '3 unmet attempts at "design" (maxAttempts 3)',
  findings: ['docs/specs/issue-7/design.md:4:1  section-empty  Section "Security design" is empty.'],
  tried: ['attempt 1: claude exited 0; the gate was unmet', 'attempt 2: claude timed\nout'],
};

describe('appendConflict', () => {
  it('starts conflicts.md with a header naming the work item and one entry per escalation, each line on one line', () => {
    const first = appendConflict(undefined, 'issue-7', entry);
    expect(first).toContain('# Conflicts\n\nEscalations the-loop recorded for issue-7.');
    expect(first).toContain(
      [
        '## 2026-03-01T10:00:00.000Z: escalated at design',
        '',
        '- Reason: 3 unmet attempts at "design" (maxAttempts 3)',
        '- Unmet attempts: 3',
        '- Findings:',
        '  - docs/specs/issue-7/design.md:4:1  section-empty  Section "Security design" is empty.',
        '- Tried:',
        '  - attempt 1: claude exited 0; the gate was unmet',
        '  - attempt 2: claude timed out',
        '- Resolve: `the-loop graph force issue-7 --to design --reason "<what was fixed>"` moves the work item back to design; name another node to send it there instead.',
        '',
      ].join('\n'),
    );
    const second = appendConflict(first, 'issue-7', { ...entry, at: '2026-03-02T10:00:00.000Z', findings: [], tried: [] });
    expect(second.startsWith(first)).toBe(true);
    expect(parseArtifact('conflicts.md', second).sections.map((s) => s.title)).toEqual([
      'Conflicts',
      '2026-03-01T10:00:00.000Z: escalated at design',
      '2026-03-02T10:00:00.000Z: escalated at design',
    ]);
    expect(second).toContain('  - (not recorded: the escalation came from outside an orchestrated run)\n');
  });
});
