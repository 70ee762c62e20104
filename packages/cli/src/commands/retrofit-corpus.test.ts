// Replays the built `the-loop` binary over the retrofit corpus (test-fixtures/retrofit-34) as a real
// child process and checks the drift figures and finding positions a user would read.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const BIN = fileURLToPath(new URL('../../bin/the-loop.cjs', import.meta.url));
const BUNDLE = fileURLToPath(new URL('../../dist/the-loop.cjs', import.meta.url));
const REPO = 'test-fixtures/retrofit-34';
const BUGFIX_ITEMS = ['issue-11', 'issue-17', 'issue-30', 'issue-49'];
const NO_REQUIREMENTS_ITEMS = ['issue-56', 'issue-63'];

interface Finding {
  ruleId: string;
  severity: string;
  message: string;
  file: string;
  line?: number;
  column?: number;
  node?: string;
}
interface ReportJson {
  schemaVersion: number;
  specRoot: string;
  workItems: number;
  ok: boolean;
  artifacts: Record<string, { present: number; status: Record<string, number> }>;
  executionLogPhases: Record<string, number>;
  items: { workItem: string; currentNode: string | null; ok: boolean; findings: Finding[] }[];
}
interface CheckJson {
  schemaVersion: number;
  workItem: string;
  currentNode: string | null;
  ok: boolean;
  nodes: { node: string; status: string; outcome?: string; findings: Finding[] }[];
  findings: Finding[];
}

function theLoop(args: string[], env: Record<string, string> = {}) {
  const base = { ...process.env };
  delete base['NO_COLOR'];
  delete base['FORCE_COLOR'];
  const result = spawnSync(process.execPath, [BIN, ...args, '--repo', REPO], { cwd: ROOT, env: { ...base, ...env }, encoding: 'utf8', shell: false });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function json<T>(args: string[]): { code: number | null; doc: T } {
  const run = theLoop([...args, '--format', 'json']);
  expect(run.stderr).toBe('');
  return { code: run.code, doc: JSON.parse(run.stdout) as T };
}

// The escape that starts every ANSI colour sequence.
const ESC = String.fromCharCode(27);

const where = (f: Finding) => ({ ruleId: f.ruleId, file: f.file, line: f.line, column: f.column, node: f.node });

beforeAll(() => {
  if (!existsSync(BUNDLE)) throw new Error('the CLI is not built: run `node scripts/build.mjs` (the test script does it first)');
});

// One run of `report --format json`, shared by the tests that read it.
let reportRun: { code: number | null; doc: ReportJson } | undefined;
const reportJson = () => (reportRun ??= json<ReportJson>(['report']));

describe('report --format json over the retrofit corpus', () => {
  let code: number | null;
  let report: ReportJson;
  beforeAll(() => {
    ({ code, doc: report } = reportJson());
  });

  it('exits 1 with one schemaVersion 1 document: no work item is complete', () => {
    expect(code).toBe(1);
    expect(report.schemaVersion).toBe(1);
    expect(report.specRoot).toBe('docs/specs');
    expect(report.ok).toBe(false);
    expect(report.items.filter((item) => item.ok)).toEqual([]);
  });

  it('prints exactly one JSON document, written item by item yet identical to its pretty-printed self', () => {
    const run = theLoop(['report', '--format', 'json']);
    expect(run.stdout).toBe(`${JSON.stringify(JSON.parse(run.stdout), null, 2)}\n`);
  });

  it('counts 34 work items; index.md beside the folders is not one', () => {
    expect(report.workItems).toBe(34);
    expect(report.items).toHaveLength(34);
    expect(report.items.map((item) => item.workItem)).not.toContain('index.md');
  });

  it('reproduces the artifact counts and their front-matter status', () => {
    expect(report.artifacts['requirements.md']).toEqual({ present: 28, status: { draft: 15, approved: 13 } });
    expect(report.artifacts['design.md']).toEqual({ present: 33, status: { draft: 16, approved: 17 } });
    expect(report.artifacts['tasks.md']?.present).toBe(24);
    expect(report.artifacts['execution-log.md']?.present).toBe(25);
    expect(report.artifacts['bugfix.md']?.present).toBe(4);
    for (const name of ['brainstorm.md', 'requirements.md', 'bugfix.md', 'design.md', 'testing-plan.md', 'tasks.md', 'execution-log.md']) {
      expect(report.artifacts, name).toHaveProperty([name]);
    }
  });

  it('reads 23 logs at needs-review (the template comment is YAML, not part of the value) and none complete', () => {
    expect(report.executionLogPhases).toEqual({ 'needs-review': 23, implementation: 1, design: 1 });
    expect(report.executionLogPhases).not.toHaveProperty('complete');
  });

  it('raises exactly one template-residue finding, on the log line it was pasted into', () => {
    const residue = report.items.flatMap((item) => item.findings.filter((f) => f.ruleId === 'template-residue').map((f) => ({ item: item.workItem, ...where(f) })));
    expect(residue).toEqual([{ item: 'issue-37', ruleId: 'template-residue', file: 'docs/specs/issue-37/execution-log.md', line: 3, column: 8, node: 'self-review' }]);
  });

  it('never reports requirements as missing on a bugfix item, and once on an item with neither file', () => {
    const requirementsMissing = (id: string) =>
      report.items.find((item) => item.workItem === id)!.findings.filter((f) => f.ruleId === 'artifact-missing' && /requirements\.md|bugfix\.md/.test(f.file));
    for (const id of BUGFIX_ITEMS) expect(requirementsMissing(id), id).toEqual([]);
    for (const id of NO_REQUIREMENTS_ITEMS) {
      expect(requirementsMissing(id).map(where), id).toEqual([{ ruleId: 'artifact-missing', file: `docs/specs/${id}/requirements.md`, line: undefined, column: undefined, node: 'requirements-definition' }]);
    }
  });

  it('reports each problem once: no two findings of an item share rule, file and position', () => {
    for (const item of report.items) {
      const keys = item.findings.map((f) => `${f.ruleId} ${f.file}:${f.line}:${f.column}`);
      expect(new Set(keys).size, item.workItem).toBe(keys.length);
    }
  });

  it('gates the verification node on evidence: each of the 23 logs past implementation meets evidence-missing, no prose section stands in for it', () => {
    const past = report.items.filter((item) => item.findings.some((f) => f.ruleId === 'evidence-missing'));
    expect(past).toHaveLength(23);
    for (const item of past) {
      expect(item.findings.filter((f) => f.ruleId === 'evidence-missing').map(where), item.workItem).toEqual([
        { ruleId: 'evidence-missing', file: '.the-loop/harness-config.yaml', line: undefined, column: undefined, node: 'verification' },
      ]);
    }
    const sections = report.items.flatMap((item) => item.findings.filter((f) => f.ruleId.startsWith('section-')).map((f) => f.message));
    expect(sections.filter((m) => /Verification results|"Evidence"/.test(m))).toEqual([]);
  });

  it('gives the same exit code as the table format', () => {
    expect(theLoop(['report']).code).toBe(code);
  });
});

describe('check <id> --format json points at the file and line of each unmet predicate', () => {
  it('tasks-incomplete: one finding per unticked task ([ ], [~], 1. [ ], + [ ]) at its line', () => {
    const { code, doc } = json<CheckJson>(['check', 'issue-23']);
    expect(code).toBe(1);
    expect(doc).toMatchObject({ schemaVersion: 1, workItem: 'issue-23', currentNode: 'requirements-approval', ok: false });
    const file = 'docs/specs/issue-23/tasks.md';
    expect(doc.findings.filter((f) => f.ruleId === 'tasks-incomplete').map(where)).toEqual(
      [12, 13, 15, 17].map((line) => ({ ruleId: 'tasks-incomplete', file, line, column: 1, node: 'implementation' })),
    );
    expect(doc.nodes.find((n) => n.node === 'implementation')).toMatchObject({ status: 'reached', outcome: 'block' });
  });

  it('phase-ahead-of-artifacts: at the log phase value, naming the draft upstream files', () => {
    const { code, doc } = json<CheckJson>(['check', 'issue-8']);
    expect(code).toBe(1);
    const found = doc.findings.filter((f) => f.ruleId === 'phase-ahead-of-artifacts');
    expect(found.map(where)).toEqual([{ ruleId: 'phase-ahead-of-artifacts', file: 'docs/specs/issue-8/execution-log.md', line: 3, column: 8, node: 'self-review' }]);
    expect(found[0]?.message).toContain('requirements.md unlocked, design.md unlocked');
  });

  it('template-residue: at the value the template comment follows', () => {
    const { doc } = json<CheckJson>(['check', 'issue-37']);
    expect(doc.findings.filter((f) => f.ruleId === 'template-residue').map(where)).toEqual([
      { ruleId: 'template-residue', file: 'docs/specs/issue-37/execution-log.md', line: 3, column: 8, node: 'self-review' },
    ]);
  });

  it('section-empty: at the "Security design" heading holding only a comment and a placeholder', () => {
    const { doc } = json<CheckJson>(['check', 'issue-58']);
    expect(doc.findings.filter((f) => f.ruleId === 'section-empty').map(where)).toEqual([
      { ruleId: 'section-empty', file: 'docs/specs/issue-58/design.md', line: 24, column: 1, node: 'design' },
    ]);
  });

  it('boundary-unaddressed: at the requirement naming the boundary the design leaves out', () => {
    const { doc } = json<CheckJson>(['check', 'issue-61']);
    const found = doc.findings.filter((f) => f.ruleId === 'boundary-unaddressed');
    expect(found.map(where)).toEqual([{ ruleId: 'boundary-unaddressed', file: 'docs/specs/issue-61/requirements.md', line: 22, column: 1, node: 'design' }]);
    expect(found[0]?.message).toContain('"Bounce webhook"');
  });
});

describe('check --fail-on block', () => {
  it('exits 1 on unticked tasks under a needs-review log: an agent can fix those', () => {
    expect(theLoop(['check', 'issue-23', '--fail-on', 'block']).code).toBe(1);
  });

  it('exits 0 when the only unmet node waits on a human, and 1 under the default --fail-on unmet', () => {
    const { code, doc } = json<CheckJson>(['check', 'issue-79', '--fail-on', 'block']);
    expect(code).toBe(0);
    expect(doc.currentNode).toBe('requirements-approval');
    expect(doc.nodes.filter((n) => n.outcome === 'block' || n.outcome === 'wait').map((n) => [n.node, n.outcome])).toEqual([['requirements-approval', 'wait']]);
    expect(theLoop(['check', 'issue-79']).code).toBe(1);
  });
});

describe('report for people', () => {
  it('table: artifact counts and one `file:line:col  ruleId  message` line per finding, no ANSI under NO_COLOR', () => {
    const { doc } = reportJson();
    // FORCE_COLOR alone paints the table, so the NO_COLOR run below shows NO_COLOR winning.
    expect(theLoop(['report'], { FORCE_COLOR: '1' }).stdout).toContain(`${ESC}[`);
    const run = theLoop(['report'], { NO_COLOR: '1', FORCE_COLOR: '1' });
    expect(run.code).toBe(1);
    expect(run.stdout).not.toContain(ESC);
    expect(run.stdout).toMatch(/^Drift report for docs\/specs: 34 work items, 0 complete$/m);
    expect(run.stdout).toMatch(/^ {2}requirements\.md +28 of 34 +draft 15, approved 13$/m);
    expect(run.stdout).toMatch(/^ {2}design\.md +33 of 34 +approved 17, draft 16$/m);
    expect(run.stdout).toMatch(/^ {2}tasks\.md +24 of 34\b/m);
    expect(run.stdout).toMatch(/^ {2}execution-log\.md +25 of 34\b/m);
    expect(run.stdout).toMatch(/needs-review 23/);
    const lines = new Set(run.stdout.split('\n'));
    // The table shows the first eight findings of each item and points to `check` for the rest.
    for (const item of doc.items) {
      for (const f of item.findings.slice(0, 8)) {
        const location = f.line === undefined ? f.file : `${f.file}:${f.line}:${f.column}`;
        expect(lines, `${item.workItem} ${f.ruleId}`).toContain(`  ${location}  ${f.ruleId}  ${f.message}`);
      }
    }
    expect(lines).toContain('  docs/specs/issue-37/execution-log.md:3:8  template-residue  ' + doc.items.find((i) => i.workItem === 'issue-37')!.findings.find((f) => f.ruleId === 'template-residue')!.message);
  });

  it('markdown: renders the artifact counts and the work items as tables', () => {
    const run = theLoop(['report', '--format', 'markdown']);
    expect(run.code).toBe(1);
    const lines = run.stdout.split('\n');
    expect(lines).toContain('| artifact | present | by status |');
    expect(lines).toContain('|---|---|---|');
    expect(lines).toContain('| `requirements.md` | 28 of 34 | draft 15, approved 13 |');
    expect(lines).toContain('| `design.md` | 33 of 34 | approved 17, draft 16 |');
    expect(lines).toContain('| work item | current node | findings |');
    expect(lines.filter((line) => /^\| issue-\d+ \| /.test(line))).toHaveLength(34);
  });
});
