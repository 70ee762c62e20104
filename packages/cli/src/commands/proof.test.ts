// `the-loop proof` on a work item whose every task is ticked and whose log claims the review
// chain, but for which nothing was ever run: a checkbox is a claim, not proof.
import { describe, expect, it } from 'vitest';
import { BUILT_IN_ADAPTERS } from '../harness/adapters.js';
import { git, makeRepo } from '../test-support/cli.js';
import { runInProcess } from '../test-support/in-process.js';

const ITEM = 'docs/specs/issue-7';
const LOG = ['---', 'phase: needs-review', '---', '# Execution log', '## Review cycles', '| # | type | outcome |', '|---|---|---|', '| 1 | self | zero |', '| 2 | critic | zero |', '| 3 | security | zero |', '## Verification results', 'All green, trust me.', '## Evidence', 'Tests pass.', '## Capability docs', 'Done.', '## Reviewer briefing', 'Read the diff.', ''].join('\n');

async function ticked(): Promise<string> {
  const dir = await makeRepo({
    '.the-loop/harness-config.yaml': 'verification:\n  checks:\n    - {id: unit, argv: [node, --test], covers: [AC1]}\n',
    [`${ITEM}/requirements.md`]: '---\nstatus: approved\n---\n# Requirements\n\n- AC1: Exports download as CSV.\n',
    [`${ITEM}/design.md`]: '---\nstatus: approved\n---\n# Design\n\n## Security design\n\nNo boundary is crossed.\n',
    [`${ITEM}/tasks.md`]: '# Tasks\n\n- [x] Write the export\n- [x] Test the export\n',
    [`${ITEM}/execution-log.md`]: LOG,
  });
  await git(dir, ['init', '-q']);
  await git(dir, ['add', '-A']);
  await git(dir, ['commit', '-qm', 'work item']);
  return dir;
}

const run = (argv: readonly string[], cwd: string) => runInProcess(argv, { cwd, adapters: BUILT_IN_ADAPTERS });

describe('the-loop proof', () => {
  it('is INCOMPLETE, exit 1, when every task is ticked and no evidence exists', async () => {
    const dir = await ticked();
    const out = await run(['proof', 'issue-7'], dir);
    expect(out.code).toBe(1);
    const proof = JSON.parse(out.stdout);
    expect(proof).toMatchObject({
      schemaVersion: 1,
      kind: 'completion.v1',
      workItem: 'issue-7',
      verdict: 'INCOMPLETE',
      commit: (await git(dir, ['rev-parse', 'HEAD'])).trim(),
      criteria: [{ id: 'AC1', text: 'Exports download as CSV.', status: 'UNVERIFIED', evidence: ['unit'] }],
      checks: [{ id: 'unit', status: 'missing' }],
      staleEvidence: [],
    });
    expect(proof.findings.map((f: { ruleId: string }) => f.ruleId)).toContain('evidence-missing');
    expect(proof.reasons).toContain('AC1 is UNVERIFIED: unit: missing (no run has been recorded)');
  });

  it('prints the markdown a reviewer reads, with the same exit code', async () => {
    const dir = await ticked();
    const out = await run(['proof', 'issue-7', '--format', 'markdown'], dir);
    expect(out.code).toBe(1);
    expect(out.stdout).toContain('## Completion proof: issue-7 — INCOMPLETE');
    expect(out.stdout).toContain('| **AC1** Exports download as CSV. | UNVERIFIED | `unit` |');
    expect(out.stdout).toContain('| `unit` | never run | — | `node --test` |');
  });

  it('exits 2 on usage errors: no id, an unknown format, a work item that does not exist', async () => {
    const dir = await ticked();
    expect((await run(['proof'], dir)).code).toBe(2);
    expect(await run(['proof', 'issue-7', '--format', 'sarif'], dir)).toMatchObject({ code: 2, stdout: '' });
    expect(await run(['proof', 'issue-8'], dir)).toMatchObject({ code: 2, stderr: expect.stringContaining('no work item "issue-8"') });
  });
});
