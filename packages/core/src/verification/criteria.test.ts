import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseArtifact } from '../artifact/parse-artifact.js';
import { readCriteria, repeatedCriteria } from './criteria.js';

const read = (text: string) => readCriteria(parseArtifact('docs/specs/w/requirements.md', text)).map((c) => ({ id: c.id, line: c.position.line, text: c.text }));

describe('readCriteria', () => {
  it('numbers Kiro-style EARS criteria AC1, AC2, … in document order across requirements', () => {
    const kiro = [
      '# Requirements Document',
      '',
      '## Introduction',
      '',
      'This feature lets a user export their data. The team shall decide the format later.',
      '',
      '## Requirements',
      '',
      '### Requirement 1',
      '',
      '**User Story:** As a user, I want to export my data, so that I can keep a copy.',
      '',
      '#### Acceptance Criteria',
      '',
      '1. WHEN the user clicks Export THEN the system SHALL download a CSV file',
      '2. IF the user has no data THEN the system SHALL show an empty-state message',
      '',
      '### Requirement 2',
      '',
      '#### Acceptance Criteria',
      '',
      '1. WHILE an export runs the system SHALL show its progress',
      '   - the bar updates each second',
      '2. WHERE the account is an organisation the system SHALL include every member',
      '',
      '```markdown',
      '1. WHEN this is only an example THEN the system SHALL ignore it',
      '```',
    ].join('\n');
    expect(read(kiro)).toEqual([
      { id: 'AC1', line: 15, text: 'WHEN the user clicks Export THEN the system SHALL download a CSV file' },
      { id: 'AC2', line: 16, text: 'IF the user has no data THEN the system SHALL show an empty-state message' },
      { id: 'AC3', line: 22, text: 'WHILE an export runs the system SHALL show its progress' },
      { id: 'AC4', line: 24, text: 'WHERE the account is an organisation the system SHALL include every member' },
    ]);
  });

  it('keeps an id the line writes: `AC1:`, `**AC2**`, a code span, a prefixed id such as FR-001', () => {
    const text = ['# Requirements', '', '- AC1: Greets by name.', '- **AC2** Greets the world.', '- `AC-3`: Says goodbye.', '', '**FR-001**: System MUST log every greeting.', '', 'AC4.1: Logs are kept a week.'].join('\n');
    expect(read(text)).toEqual([
      { id: 'AC1', line: 3, text: 'Greets by name.' },
      { id: 'AC2', line: 4, text: 'Greets the world.' },
      { id: 'AC-3', line: 5, text: 'Says goodbye.' },
      { id: 'FR-001', line: 7, text: 'System MUST log every greeting.' },
      { id: 'AC4.1', line: 9, text: 'Logs are kept a week.' },
    ]);
  });

  it('counts an unnamed criterion by its place among all of them', () => {
    const text = ['# R', '', 'AC1: Explicit.', '', 'WHEN asked THEN the system SHALL answer.', '', 'AC7: Explicit again.', '', 'The service shall log it.'].join('\n');
    expect(read(text).map((c) => c.id)).toEqual(['AC1', 'AC2', 'AC7', 'AC4']);
  });

  it('reads the top-level items under an "Acceptance criteria" heading, ticked or not, and nothing else of plain prose', () => {
    const text = ['# R', '', 'Users want exports.', '', '## Acceptance criteria', '', 'These must hold:', '', '- [ ] Export downloads a CSV', '- [x] Empty accounts get a message', '  - a detail, not a criterion', '', '## Notes', '', '- Not a criterion either'].join('\n');
    expect(read(text)).toEqual([
      { id: 'AC1', line: 9, text: 'Export downloads a CSV' },
      { id: 'AC2', line: 10, text: 'Empty accounts get a message' },
    ]);
  });

  it('does not take lower-case "shall" in prose, a user story, HTTP2: or a blockquote for a criterion', () => {
    const text = ['# R', '', 'The team will decide; nobody shall be blamed.', '', '**User Story:** As a user I want X.', '', 'HTTP2: supported by the proxy.', '', '> WHEN quoted THEN the system SHALL be ignored'].join('\n');
    expect(read(text)).toEqual([]);
  });

  it('names repeated ids', () => {
    const criteria = readCriteria(parseArtifact('r.md', '# R\n\nAC1: one\n\nAC1: two\n'));
    expect(repeatedCriteria(criteria).map(({ criterion, first }) => [criterion.position.line, first.position.line])).toEqual([[5, 3]]);
  });

  it('is total and gives unique positions in order on any text', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('# R', '', '1. WHEN a THEN the system SHALL b', 'AC2: x', '- **AC3** y', '## Acceptance criteria', '- item', '```', '> q', 'prose'), { maxLength: 30 }), (lines) => {
        const criteria = readCriteria(parseArtifact('r.md', lines.join('\n')));
        const at = criteria.map((c) => c.position.line);
        expect([...at].sort((a, b) => a - b)).toEqual(at);
        for (const c of criteria) expect(c.id).toMatch(/^[A-Z]/);
      }),
    );
  });
});
