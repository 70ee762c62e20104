// Test support for gate tests: in-memory pieces of a work item that passes every node.
import type { WorkItemInput } from '../gate/inputs.js';

/** Approvals by `ann` (an approver) of each artifact at digest `d-<name>`, and those digests. */
export function approvedBy(...names: string[]): Partial<WorkItemInput> {
  return {
    approvals: names.map((artifact) => ({ artifact, digest: `d-${artifact}`, by: 'ann', at: '2026-01-01T00:00:00Z' })),
    digests: new Map(names.map((name) => [name, `d-${name}`])),
    approvers: ['ann'],
  };
}

/** An execution log at `phase` whose every review-chain section and round is written. */
export function completeLog(phase: string): string {
  return [
    '---',
    `phase: ${phase}`,
    '---',
    '# Execution log',
    '## Review cycles',
    '| # | type | outcome |',
    '|---|---|---|',
    '| 1 | self | zero |',
    '| 2 | critic | new findings |',
    '| 3 | security | zero |',
    '## Verification results',
    'All checks green.',
    '## Evidence',
    'Test run linked.',
    '## Capability docs',
    'Updated.',
    '## Reviewer briefing',
    'Start at the gate.',
    '## Learnings',
    'Keep gates small.',
    '',
  ].join('\n');
}
