// Folders other teams wrote (test-fixtures/adopted): the earlier the-loop's spec folders and
// EARS requirements in Kiro's style. Every finding the precision rules are about is asserted:
// what the-loop reports on them, and nothing more.
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Diagnostic } from '@the-loop/core';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_ADAPTERS } from '../harness/adapters.js';
import { runInProcess } from '../test-support/in-process.js';

const FIXTURES = fileURLToPath(new URL('../../../../test-fixtures/adopted/', import.meta.url));
const OLDER = join(FIXTURES, 'older-the-loop');
const EARS = join(FIXTURES, 'ears-requirements');

type Finding = Diagnostic;
interface Report {
  items: { workItem: string; ok: boolean; findings: Finding[] }[];
}

const run = (args: string[], cwd: string) => runInProcess(args, { cwd, adapters: BUILT_IN_ADAPTERS });
async function report(cwd: string): Promise<Report> {
  // The fixtures sit inside this repository: name the folder, or the walk up finds this repository's root.
  const result = await run(['report', '--format', 'json', '--repo', cwd], cwd);
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout) as Report;
}
const of = (doc: Report, rule: string) =>
  doc.items.flatMap((item) => item.findings.filter((f) => f.ruleId === rule).map((f) => `${f.file.replace('docs/specs/', '')}:${f.line}${f.severity === 'error' ? '' : ` ${f.severity}`}`));

async function copyOf(dir: string): Promise<string> {
  const copy = await mkdtemp(join(tmpdir(), 'the-loop-adopted-'));
  await cp(dir, copy, { recursive: true });
  return copy;
}

describe('the earlier the-loop\'s folders, under their migrated configuration', () => {
  it('reports a boundary only where a named boundary is missing from the design: no category label, sentence, EARS criterion or placeholder', async () => {
    const doc = await report(OLDER);
    expect(of(doc, 'boundary-unaddressed')).toEqual(['issue-102/requirements.md:27', 'issue-104/requirements.md:23', 'issue-110/requirements.md:20']);
    const messages = doc.items.flatMap((i) => i.findings.filter((f) => f.ruleId === 'boundary-unaddressed').map((f) => f.message));
    expect(messages.map((m) => /"([^"]+)"/.exec(m)?.[1])).toEqual(['IdP metadata URL', 'internal billing service', 'Exchange-rate feed']);
  });

  it('reads review tables under every configured heading, with Reviewer, Kind, Result and Findings columns', async () => {
    expect(of(await report(OLDER), 'review-rounds-missing')).toEqual([]);
  });

  it('reports the templates\' `# draft | in-review | approved` comments as the warnings the configuration asks for', async () => {
    const residue = of(await report(OLDER), 'template-residue');
    expect(residue).toHaveLength(15);
    expect(residue.every((f) => f.endsWith(' warning'))).toBe(true);
  });

  it('gives the earlier tool\'s graph-state.json one short finding that says what it is and how to migrate', async () => {
    const doc = await report(OLDER);
    const found = doc.items.flatMap((i) => i.findings.filter((f) => f.ruleId === 'graph-state-invalid'));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ file: 'docs/specs/issue-101/graph-state.json', line: 1, column: 1 });
    expect(found[0]!.message).toMatch(/not a graph state of this the-loop: a JSON object without "schemaVersion": 1 \(keys: work_item, current_phase, phase_history, human_reviews\)/);
    expect(found[0]!.message.length).toBeLessThan(300);
    expect(found[0]!.fix).toMatch(/^Move it aside \(git mv docs\/specs\/issue-101\/graph-state\.json docs\/specs\/issue-101\/graph-state\.legacy\.json\)/);
  });

  it('names `approvedBy` from front-matter as no approval, at its line, with the login to record it', async () => {
    const doc = await report(OLDER);
    const item = doc.items.find((i) => i.workItem === 'issue-101')!;
    const missing = item.findings.find((f) => f.ruleId === 'approval-missing' && f.file.endsWith('design.md'))!;
    expect(missing).toMatchObject({ line: 5, message: 'No approver has approved design.md. Front-matter `approvedBy: mhoffmann, tkowalski` is not an approval.' });
    expect(missing.fix).toContain('--by mhoffmann');
  });

  it('fails `check --fail-on block` on nothing but warnings and human waits; the same item fails once residue is an error again', async () => {
    expect((await run(['check', 'issue-112', '--fail-on', 'block'], OLDER)).code).toBe(0);
    const strict = await copyOf(OLDER);
    try {
      await rm(join(strict, '.the-loop/harness-config.yaml'));
      const result = await run(['check', 'issue-112', '--fail-on', 'block', '--format', 'json'], strict);
      expect(result.code).toBe(1);
      const blocking = (JSON.parse(result.stdout) as { findings: Finding[] }).findings.filter((f) => f.ruleId === 'template-residue').map((f) => [f.severity, f.node]);
      expect(blocking).toEqual([['error', 'design'], ['error', 'requirements-definition']]);
    } finally {
      await rm(strict, { recursive: true, force: true });
    }
  });

  it('without the configuration, a table under another heading is not read, and the finding says which heading it looked for', async () => {
    const bare = await copyOf(OLDER);
    try {
      await rm(join(bare, '.the-loop/harness-config.yaml'));
      const doc = await report(bare);
      expect(of(doc, 'review-rounds-missing')).toEqual(['issue-101/execution-log.md:30', 'issue-107/execution-log.md:28']);
      const message = doc.items.flatMap((i) => i.findings).find((f) => f.ruleId === 'review-rounds-missing')!.message;
      expect(message).toBe('The execution log records 0 self review rounds that ran; 1 needed.');
      expect(doc.items.flatMap((i) => i.findings).find((f) => f.ruleId === 'review-rounds-missing')!.fix).toContain('under "Review cycles"');
    } finally {
      await rm(bare, { recursive: true, force: true });
    }
  });
});

describe('the earlier the-loop\'s configuration files, as it left them', () => {
  it('reports every unknown key of both files in one run, each with its line, a did-you-mean or the migration', async () => {
    const repo = await copyOf(OLDER);
    try {
      await cp(join(repo, 'legacy/harness-config.yaml'), join(repo, '.the-loop/harness-config.yaml'));
      await cp(join(repo, 'legacy/collaborators.yaml'), join(repo, '.the-loop/collaborators.yaml'));
      const result = await run(['check', 'issue-101'], repo);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      const lines = result.stderr.trimEnd().split('\n');
      expect(lines[0]).toBe('the-loop: the configuration is invalid:');
      expect(lines.slice(1).map((line) => line.replace(/^ {2}(\S+):(\d+):\d+ {2}(.*?)( — .*| \(.*)?$/, '$1:$2 $3'))).toEqual([
        '.the-loop/harness-config.yaml:2 unknown key "version"',
        '.the-loop/harness-config.yaml:3 unknown key "specApproach"',
        '.the-loop/harness-config.yaml:6 workflow: unknown key "requireHumanReviewPerPhase"',
        '.the-loop/harness-config.yaml:7 workflow: unknown key "capabilitiesDir"',
        '.the-loop/harness-config.yaml:8 workflow: unknown key "learningsDir"',
        '.the-loop/harness-config.yaml:9 workflow: unknown key "phaseLabelPrefix"',
        '.the-loop/harness-config.yaml:18 reviews.critics[0]: unknown key "timeout"',
        '.the-loop/harness-config.yaml:21 hooks: unknown key "stopHookEnabled"',
        '.the-loop/collaborators.yaml:1 unknown key "version"',
        '.the-loop/collaborators.yaml:3 collaborators[0]: missing key "login"',
        '.the-loop/collaborators.yaml:3 collaborators[0]: unknown key "handle"',
        '.the-loop/collaborators.yaml:5 collaborators[1]: missing key "login"',
        '.the-loop/collaborators.yaml:5 collaborators[1]: unknown key "handle"',
      ]);
      expect(result.stderr).toContain('unknown key "specApproach" — a key of the earlier the-loop: the lifecycle is the graph now');
      expect(result.stderr).toContain('unknown key "handle" — a key of the earlier the-loop: renamed login; rename the key');
      expect(result.stderr).not.toMatch(/at \S+\.(c?js|ts):\d+/);
    } finally {
      await rm(repo, { recursive: true, force: true });
    }
  });
});

describe('requirements in EARS, written the way Kiro writes them', () => {
  it('never takes an EARS criterion for a boundary; an explicit id anchors one; a named boundary the design leaves out is reported', async () => {
    const doc = await report(EARS);
    expect(of(doc, 'boundary-unaddressed')).toEqual(['team-invites/requirements.md:23', 'webhook-relay/requirements.md:25']);
    const messages = doc.items.flatMap((i) => i.findings.filter((f) => f.ruleId === 'boundary-unaddressed').map((f) => f.message));
    expect(messages).toEqual([
      'Trust boundary "Role escalation" named in requirements.md § Security considerations is not addressed in design.md.',
      'Trust boundary SEC-3 named in requirements.md § Security considerations is not addressed in design.md.',
    ]);
  });
});
