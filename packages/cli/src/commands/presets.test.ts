// The fixture repositories in test-fixtures/presets, written the way Kiro, spec-kit, OpenSpec
// and the-loop write work items, reported by the built binary as a user would run it: where each
// work item stands and every finding, to the line.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runBuiltCli } from '../test-support/cli.js';

const FIXTURES = fileURLToPath(new URL('../../../../test-fixtures/presets/', import.meta.url));

interface Finding {
  ruleId: string;
  severity: string;
  file: string;
  line?: number;
  node?: string;
}
interface ReportJson {
  specRoot: string;
  ok: boolean;
  items: { workItem: string; currentNode: string | null; ok: boolean; findings: Finding[] }[];
}

// Each work item as `id @ node (ok|unmet)` followed by its findings as `rule severity file:line node`.
async function report(preset: string): Promise<{ code: number; stderr: string; specRoot: string; items: Record<string, string[]> }> {
  const result = await runBuiltCli(['report', '--format', 'json'], { cwd: `${FIXTURES}${preset}` });
  const doc = JSON.parse(result.stdout) as ReportJson;
  const items = Object.fromEntries(
    doc.items.map((item) => [
      item.workItem,
      [`@ ${item.currentNode ?? 'done'} (${item.ok ? 'ok' : 'unmet'})`, ...item.findings.map((f) => `${f.ruleId} ${f.severity} ${f.file.slice(doc.specRoot.length + 1)}${f.line === undefined ? '' : `:${f.line}`} ${f.node}`)],
    ]),
  );
  return { code: result.code, stderr: result.stderr, specRoot: doc.specRoot, items };
}

describe('kiro: .kiro/specs/<feature>/', () => {
  it('reads every open task, nested or in progress, shows optional ones without blocking, and ignores a checklist in a code fence', async () => {
    const result = await report('kiro');
    expect([result.code, result.specRoot]).toEqual([1, '.kiro/specs']);
    expect(result.items).toEqual({
      '1-ui-design-system': ['@ done (ok)', 'optional-task-open warning 1-ui-design-system/tasks.md:18 implementation'],
      'csv-export': [
        '@ design (unmet)',
        'artifact-missing error csv-export/design.md design',
        'tasks-incomplete error csv-export/tasks.md:7 implementation',
        'tasks-incomplete error csv-export/tasks.md:18 implementation',
      ],
      'user-authentication': [
        '@ implementation (unmet)',
        'tasks-incomplete error user-authentication/tasks.md:8 implementation',
        'tasks-incomplete error user-authentication/tasks.md:12 implementation',
        'optional-task-open warning user-authentication/tasks.md:14 implementation',
        'tasks-incomplete error user-authentication/tasks.md:17 implementation',
        'tasks-incomplete error user-authentication/tasks.md:18 implementation',
        'tasks-incomplete error user-authentication/tasks.md:20 implementation',
        'tasks-incomplete error user-authentication/tasks.md:23 implementation',
        'tasks-incomplete error user-authentication/tasks.md:24 implementation',
        'optional-task-open warning user-authentication/tasks.md:26 implementation',
      ],
    });
    expect(result.stderr).toContain('skipped .kiro/specs/_archived-onboarding');
  });

  it('check words an in-progress task and an optional one for people', async () => {
    const result = await runBuiltCli(['check', 'user-authentication'], { cwd: `${FIXTURES}kiro` });
    expect(result.stdout).toContain('tasks.md:8:1  tasks-incomplete  Task not done: "2. Implement credential verification" ([-]).');
    expect(result.stdout).toContain('tasks.md:14:3  optional-task-open  Optional task not done: "2.3 Write unit tests for the lockout window" ([ ]*); it does not block.');
    // An optional task alone never fails the CI gate.
    expect((await runBuiltCli(['check', '1-ui-design-system', '--fail-on', 'unmet'], { cwd: `${FIXTURES}kiro` })).code).toBe(0);
  });
});

describe('spec-kit: specs/<NNN-feature>/', () => {
  it('walks spec, plan and tasks; an open [NEEDS CLARIFICATION: …] stops the spec', async () => {
    const result = await report('spec-kit');
    expect([result.code, result.specRoot]).toEqual([1, 'specs']);
    expect(result.items).toEqual({
      '001-photo-albums': [
        '@ implement (unmet)',
        ...[31, 32, 36, 37, 41].map((line) => `tasks-incomplete error 001-photo-albums/tasks.md:${line} implement`),
      ],
      '002-share-links': ['@ specify (unmet)', 'template-residue error 002-share-links/spec.md:24 specify', 'template-residue error 002-share-links/spec.md:25 specify'],
      '003-dark-mode': ['@ done (ok)'],
    });
  });
});

describe('openspec: openspec/changes/<change-id>/', () => {
  it('walks proposal, an optional design and tasks; the archive of finished changes is not a work item', async () => {
    const result = await report('openspec');
    expect([result.code, result.specRoot, result.stderr]).toEqual([1, 'openspec/changes', '']);
    expect(result.items).toEqual({
      'add-audit-log': ['@ tasks (unmet)', 'artifact-missing error add-audit-log/tasks.md tasks'],
      'add-two-factor-auth': ['@ apply (unmet)', ...[5, 6, 11].map((line) => `tasks-incomplete error add-two-factor-auth/tasks.md:${line} apply`)],
      'update-session-timeout': ['@ done (ok)'],
    });
  });
});

describe("the-loop: docs/specs/<id>/", () => {
  it('checks a task list that exists while the requirements wait on an approver, and names each placeholder of a fresh work item', async () => {
    const result = await report('the-loop');
    expect(result.items).toEqual({
      'issue-101': [
        '@ requirements-approval (unmet)',
        'approval-missing error issue-101/requirements.md:1 requirements-approval',
        'tasks-incomplete error issue-101/tasks.md:8 implementation',
        'tasks-incomplete error issue-101/tasks.md:9 implementation',
      ],
      'issue-102': ['@ requirements-definition (unmet)', ...[10, 16, 22, 26].map((line) => `template-residue error issue-102/requirements.md:${line} requirements-definition`)],
    });
  });
});
