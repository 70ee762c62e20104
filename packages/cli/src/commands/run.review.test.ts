// The review chain as rounds under `the-loop run`: each round's reviewer answers in JSON, the
// round is recorded in the execution log's Review cycles table and in reviews/cycle-<n>.json,
// and the loop stops on zero new findings, escalates on a repeat, and never counts a round no
// reviewer could run.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recorded, runWithStandins, STANDIN_PATH, tempProject } from '../test-support/cli-harness.js';

const ID = 'issue-7';
const DIR = `docs/specs/${ID}`;
const LOG = '---\nphase: needs-review\n---\n# Execution log\n\n## Verification results\n\nAll green.\n';

function config(reviews: string[], start = 'self-review'): string {
  return [
    'workflow:',
    '  graph:',
    `    start: ${start}`,
    '    nodes:',
    '      - {id: self-review, phase: needs-review, actor: agent, produces: execution-log.md, gate: [{reviewRounds: {type: self, min: 1}}]}',
    '      - {id: critic-review, phase: needs-review, actor: agent, produces: execution-log.md, gate: [{reviewRounds: {type: critic, min: 1}}]}',
    '      - {id: approval, phase: needs-review, actor: human, produces: execution-log.md, gate: [{approved: execution-log.md}]}',
    '    edges:',
    '      - {from: self-review, to: critic-review, on: pass}',
    '      - {from: critic-review, to: approval, on: pass}',
    'reviews:',
    ...reviews,
    '',
  ].join('\n');
}

async function project(configText: string) {
  const dir = await tempProject({ '.the-loop/harness-config.yaml': configText, [`${DIR}/execution-log.md`]: LOG });
  const aside = await mkdtemp(join(tmpdir(), 'the-loop-agent-'));
  const script = join(aside, 'script.json');
  const record = join(aside, 'record.jsonl');
  return {
    dir,
    async run(steps: unknown[], args: string[] = []) {
      await writeFile(script, JSON.stringify(steps));
      const done = await runWithStandins(['run', ID, ...args], { cwd: dir, env: { PATH: STANDIN_PATH, STANDIN_SCRIPT: script, STANDIN_RECORD: record } });
      return { ...done, result: JSON.parse(done.stdout), events: done.stderr.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>) };
    },
    prompts: () => recorded(record),
    read: (path: string) => readFile(join(dir, path), 'utf8'),
    cycles: async () => {
      const log = await readFile(join(dir, DIR, 'execution-log.md'), 'utf8');
      return log
        .split('\n')
        .filter((line) => /^\| \d+ \|/.test(line))
        .map((line) => line.split('|').slice(1, -1).map((cell) => cell.trim()));
    },
  };
}

const finding = { file: 'src/greet.ts', line: 3, summary: 'An empty name prints "Hello, !"' };

describe('the-loop run: review rounds', () => {
  it('runs self rounds on the same harness until one finds nothing new, with the author fixing in between', async () => {
    const p = await project(config(['  selfReviewCount: 3', '  critics: []'], 'self-review'));
    const run = await p.run([{ answer: { findings: [finding] } }, { write: { 'src/greet.ts': 'export const greet = (name) => `Hello, ${name || "you"}!`;\n' } }, { answer: { findings: [] } }], ['--max-nodes', '1']);

    expect(run.result).toMatchObject({ status: 'budget-exhausted', currentNode: 'critic-review', nodesRun: [{ node: 'self-review', attempts: 2, outcome: 'pass' }] });
    expect(await p.cycles()).toEqual([
      ['1', 'self', '[claude/default]', 'new findings', 'reviews/cycle-1.json'],
      ['2', 'self', '[claude/default]', 'zero', 'reviews/cycle-2.json'],
    ]);
    const [review1, fix, review2] = await p.prompts();
    expect(review1?.argv).toContain('--json-schema');
    expect(review1?.argv).not.toContain('--permission-mode');
    expect(review1?.prompt).toContain('Review round 1 (self review) of work item issue-7, at node "self-review".');
    expect(fix?.argv).toEqual(['--print', '--output-format', 'json', '--permission-mode', 'acceptEdits']);
    expect(fix?.prompt).toContain('Review round 1 by [claude/default] reported these findings.');
    expect(fix?.prompt).toContain('- [claude/default] R1.1 src/greet.ts:3 An empty name prints "Hello, !"');
    expect(review2?.prompt).toContain('- R1.1 src/greet.ts:3 An empty name prints "Hello, !"');
    expect(JSON.parse(await p.read(`${DIR}/reviews/cycle-1.json`))).toMatchObject({ cycle: 1, type: 'self', outcome: 'new findings', findings: [{ id: 'R1.1', ...finding, repeats: null }] });
    expect(run.events.filter((e) => e['event'] === 'review.round').map((e) => e['outcome'])).toEqual(['new findings', 'zero']);
  });

  it('escalates when two consecutive rounds surface the same finding', async () => {
    const p = await project(config(['  selfReviewCount: 3', '  critics: []']));
    const run = await p.run([{ answer: { findings: [finding] } }, {}, { answer: { findings: [{ ...finding, summary: 'Still prints "Hello, !"', repeats: 'R1.1' }] } }]);

    expect(run.code).toBe(1);
    expect(run.result).toMatchObject({ status: 'escalated', reason: 'escalated at "self-review": self round 2 repeats R1.1 of round 1' });
    expect((await p.cycles()).map((row) => row[3])).toEqual(['new findings', 'escalated']);
    const conflicts = await p.read(`${DIR}/conflicts.md`);
    expect(conflicts).toContain('  - R2.1 src/greet.ts:3 Still prints "Hello, !" (repeats R1.1)');
    expect(conflicts).toContain('  - self round 1 by [claude/default]: new findings (1 finding)');
  });

  it('rotates critics, records a critic that could not run as unavailable without counting it, and lets the next critic run the round', async () => {
    const critics = ['  critics:', '    - {name: gone, command: no-such-reviewer, args: ["{promptFile}"]}', '    - {name: cursor-gpt, harness: cursor, model: gpt-5}'];
    const p = await project(config(critics, 'critic-review'));
    const run = await p.run([{ answer: { findings: [] } }], ['--max-nodes', '1']);

    expect(run.result).toMatchObject({ status: 'budget-exhausted', currentNode: 'approval', nodesRun: [{ node: 'critic-review', attempts: 1, outcome: 'pass' }] });
    expect(await p.cycles()).toEqual([
      ['1', 'critic', '[gone/default]', 'unavailable', 'reviews/cycle-1.json'],
      ['2', 'critic', '[cursor/gpt-5]', 'zero', 'reviews/cycle-2.json'],
    ]);
    expect(JSON.parse(await p.read(`${DIR}/reviews/cycle-1.json`))).toMatchObject({ outcome: 'unavailable', critic: 'gone', error: expect.stringContaining('no-such-reviewer was not found on PATH') });
    const [round] = await p.prompts();
    expect(round?.harness).toBe('cursor-agent');
    expect(round?.argv.slice(0, 6)).toEqual(['--print', '--output-format', 'json', '--trust', '--model', 'gpt-5']);
  });

  it('records a critic round with no critic available as unavailable, does not count it, and writes the gap instead of converging', async () => {
    const p = await project(config(['  critics:', '    - {name: gone, command: no-such-reviewer, args: ["{promptFile}"]}', '    - {name: off, harness: cursor, enabled: false}'], 'critic-review'));
    const run = await p.run([]);

    expect(run.code).toBe(1);
    expect(run.result).toMatchObject({ status: 'failed', currentNode: 'critic-review', nodesRun: [{ node: 'critic-review', attempts: 0, outcome: 'failed' }] });
    expect(run.result.reason).toContain('no reviewer could run it ([gone/default]: no-such-reviewer was not found on PATH');
    expect(await p.cycles()).toEqual([['1', 'critic', '[gone/default]', 'unavailable', 'reviews/cycle-1.json']]);
    const log = await p.read(`${DIR}/execution-log.md`);
    expect(log).toMatch(/## Review gaps\n\n- \S+: critic review round at "critic-review": no reviewer could run it/);
    // The unavailable round does not count: the gate still wants a critic round.
    const check = await runWithStandins(['check', ID, '--format', 'json'], { cwd: p.dir });
    expect(JSON.parse(check.stdout).findings.map((f: { ruleId: string }) => f.ruleId)).toContain('review-rounds-missing');
    expect(existsSync(join(p.dir, DIR, 'conflicts.md'))).toBe(false);
    expect(await p.prompts()).toHaveLength(0);
  });

  it('treats a review that is not the JSON answer as an unavailable round, never as zero findings', async () => {
    const p = await project(config(['  selfReviewCount: 2', '  critics: []']));
    const run = await p.run([{ answer: 'Looks good to me!' }], ['--harness', 'cursor']);

    expect(run.result).toMatchObject({ status: 'failed', nodesRun: [{ node: 'self-review', outcome: 'failed' }] });
    expect(await p.cycles()).toEqual([['1', 'self', '[cursor/default]', 'unavailable', 'reviews/cycle-1.json']]);
    expect(JSON.parse(await p.read(`${DIR}/reviews/cycle-1.json`))).toMatchObject({ error: 'the review was not a JSON object', findings: [] });
  });
});
