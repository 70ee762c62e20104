import { describe, expect, it } from 'vitest';
import { diagnostic } from '../diagnostic.js';
import { getDefaultGraph } from '../graph/compile-graph.js';
import { renderAssignment } from './assignment.js';

const design = getDefaultGraph().byId.get('design')!;
const finding = diagnostic({
  ruleId: 'section-empty',
  message: 'Section "Security design" is empty.',
  file: 'docs/specs/issue-7/design.md',
  position: { line: 4, column: 1 },
  fix: 'Write the section.',
});

describe('renderAssignment', () => {
  it('names the node, the artifact and where, the gate in words, every unmet finding with its fix, and the claim', () => {
    const text = renderAssignment({ node: design, workItem: 'issue-7', dir: 'docs/specs/issue-7', unmet: [finding], attempt: { number: 2, of: 3 }, previousFailure: 'claude exited 1: overloaded' });
    expect(text).toBe(
      [
        'Node "design" of work item issue-7 (docs/specs/issue-7): phase design, attempt 2 of 3.',
        '',
        'Produce or update: docs/specs/issue-7/design.md.',
        'The gate passes when it has:',
        '- non-empty sections "Security design"',
        '- every trust boundary named under "Security considerations" in requirements.md addressed',
        '',
        'The previous attempt did not finish: claude exited 1: overloaded',
        '',
        'Unmet now (1); fix each:',
        '- docs/specs/issue-7/design.md:4:1 section-empty: Section "Security design" is empty. Fix: Write the section.',
        '',
        'When the gate passes, claim the node with: the-loop graph complete issue-7 --node design',
        '',
      ].join('\n'),
    );
  });

  it('discloses the node\'s reference material and a review round\'s findings under the reviewer\'s attribution', () => {
    const text = renderAssignment({
      node: { ...design, assignment: 'Write the design.' },
      workItem: 'issue-7',
      unmet: [],
      references: [{ path: 'docs/reference/design.md', text: 'Every design names its trust boundaries.\n\n' }],
      review: { cycle: 3, reviewer: '[cursor/gpt-5]', findings: ['R3.1 src/sync.ts:40 retries a 401 forever'] },
    });
    expect(text).toContain('Write the design.\n');
    expect(text).toContain('Reference material for this node, docs/reference/design.md:\n<<<\nEvery design names its trust boundaries.\n>>>');
    expect(text).toContain('Review round 3 by [cursor/gpt-5] reported these findings.');
    expect(text).toContain('- [cursor/gpt-5] R3.1 src/sync.ts:40 retries a 401 forever');
    expect(text).not.toContain('Unmet now');
  });

  it('lists at most 20 findings and says where the rest are', () => {
    const many = Array.from({ length: 25 }, (_, i) => `tasks.md:${i + 1}:1 tasks-incomplete: task ${i + 1}`);
    const text = renderAssignment({ node: design, workItem: 'issue-7', unmet: many });
    expect(text).toContain('Unmet now (25); fix each:');
    expect(text).toContain('- tasks.md:20:1 tasks-incomplete: task 20\n- … 5 more: run `the-loop check issue-7`');
    expect(text).not.toContain('task 21');
  });
});
