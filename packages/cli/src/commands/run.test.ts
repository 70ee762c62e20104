// `the-loop run` end to end: the built CLI drives harness stand-ins on PATH that accept exactly
// the flags the real CLIs' --help lists, record the argv and prompt they received, and act as an
// agent from a script — writing an artifact correctly, wrongly, not at all, or hanging.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, watch } from 'node:fs';
import { mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { BIN, isAlive, recorded, runWithStandins, STANDIN_PATH, tempProject, withClockAfter, type Recorded } from '../test-support/cli-harness.js';

const ID = 'issue-7';
const DIR = `docs/specs/${ID}`;
const LOCKED = '---\nstatus: approved\n---\n# Requirements\n\nGreet the user.\n';
const DRAFT = '---\nstatus: draft\n---\n# Requirements\n\nGreet the user.\n';
const LOG = '---\nphase: requirements-definition\n---\n# Execution log\n';

/** A step of a stand-in's script: what the agent does in one harness run. */
interface Step {
  write?: Record<string, string>;
  mode?: string;
  answer?: unknown;
}

/** requirements (agent, locked) → tasks (agent, ticked, inherits the session) → approval (human). */
function config(options: { requirements?: string; tasks?: string; extra?: string[] } = {}): string {
  return [
    'workflow:',
    '  graph:',
    '    start: requirements',
    '    nodes:',
    `      - {id: requirements, phase: requirements-definition, actor: agent, produces: requirements.md, gate: [{locked: true}]${options.requirements ?? ''}}`,
    `      - {id: tasks, phase: tasks-breakdown, actor: agent, produces: tasks.md, session: inherit, gate: [{tasksComplete: true}]${options.tasks ?? ''}}`,
    '      - {id: approval, phase: implementation, actor: human, produces: tasks.md, gate: [{approved: tasks.md}]}',
    '    edges:',
    '      - {from: requirements, to: tasks, on: pass}',
    '      - {from: tasks, to: approval, on: pass}',
    ...(options.extra ?? []),
    '',
  ].join('\n');
}

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly result: Record<string, unknown> & { nodesRun: { node: string; attempts: number; outcome: string; sessionId: string | null }[] };
  readonly events: Record<string, unknown>[];
  readonly stderr: string;
}

/** Resolves once the stand-ins have recorded an invocation in `file`: woken by the file system, never by a timer. */
function recordedOnce(file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    // Watch first, then look: a line written in between still wakes the check.
    const watcher = watch(dirname(file), () => void check());
    const check = async () => {
      if (!(await readFile(file, 'utf8').catch(() => '')).includes('\n')) return;
      watcher.close();
      resolve();
    };
    watcher.on('error', reject);
    void check();
  });
}

/** A temporary repository with the config and files, and a stand-in script file beside it. */
async function project(configText: string, files: Record<string, string> = {}) {
  const dir = await tempProject({ '.the-loop/harness-config.yaml': configText, [`${DIR}/execution-log.md`]: LOG, ...files });
  const aside = await mkdtemp(join(tmpdir(), 'the-loop-agent-'));
  const script = join(aside, 'script.json');
  const record = join(aside, 'record.jsonl');
  return {
    dir,
    record,
    /** Run `the-loop run` with the stand-ins acting out `steps` (appended to what earlier runs left). */
    async run(args: string[], steps: Step[] = [], env: Record<string, string> = {}): Promise<Run> {
      const earlier = existsSync(script) ? (JSON.parse(await readFile(script, 'utf8')) as Step[]) : [];
      await writeFile(script, JSON.stringify([...earlier, ...steps]));
      const done = await runWithStandins(['run', ID, ...args], { cwd: dir, env: { PATH: STANDIN_PATH, STANDIN_SCRIPT: script, STANDIN_RECORD: record, ...env } });
      return {
        ...done,
        result: done.stdout.startsWith('{') ? JSON.parse(done.stdout) : ({ nodesRun: [] } as unknown as Run['result']),
        events: done.stderr.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>),
      };
    },
    prompts: async (): Promise<Recorded[]> => recorded(record),
    read: (path: string) => readFile(join(dir, path), 'utf8'),
    state: async () => JSON.parse(await readFile(join(dir, DIR, 'graph-state.json'), 'utf8')),
  };
}

describe('the-loop run: from the first node to a human gate', () => {
  it('runs each agent node headless, names the node, the artifact and the unmet findings in the prompt, resumes an inheriting node\'s session, and parks', async () => {
    const p = await project(config());
    const run = await p.run(
      [],
      [
        { write: { [`${DIR}/requirements.md`]: LOCKED } },
        { write: { [`${DIR}/tasks.md`]: '# Tasks\n\n- [x] Write the greeting\n- [x] Test the greeting\n' } },
      ],
    );

    expect(run.code).toBe(0);
    expect(run.result).toEqual({
      schemaVersion: 1,
      workItem: ID,
      requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      status: 'parked',
      currentNode: 'approval',
      nodesRun: [
        { node: 'requirements', attempts: 1, outcome: 'pass', sessionId: '8d3c0b1e-0000-4000-8000-000000000001' },
        { node: 'tasks', attempts: 1, outcome: 'pass', sessionId: '8d3c0b1e-0000-4000-8000-000000000001' },
        { node: 'approval', attempts: 0, outcome: 'wait', sessionId: null },
      ],
      usage: { inputTokens: 2400, outputTokens: 680, costUsd: 0.0246 },
      reason: '"approval" waits on a person: No approver has approved tasks.md.',
    });
    const [first, second] = await p.prompts();
    expect(first?.argv).toEqual(['--print', '--output-format', 'json', '--permission-mode', 'acceptEdits']);
    expect(first?.cwd).toBe(p.dir);
    expect(first?.prompt).toContain(`Node "requirements" of work item ${ID} (${DIR}): phase requirements-definition.`);
    expect(first?.prompt).toContain(`Produce or update: ${DIR}/requirements.md.`);
    expect(first?.prompt).toContain('- front-matter `status: approved`');
    expect(first?.prompt).toContain(`- ${DIR}/requirements.md artifact-missing: requirements.md is missing.`);
    expect(first?.prompt).toContain(`When the gate passes, claim the node with: the-loop graph complete ${ID} --node requirements`);
    // tasks declares `session: inherit` and the previous node ran on the same harness.
    expect(second?.argv).toEqual(['--print', '--output-format', 'json', '--permission-mode', 'acceptEdits', '--resume', '8d3c0b1e-0000-4000-8000-000000000001']);
    expect(second?.prompt).toContain(`- ${DIR}/tasks.md artifact-missing: tasks.md is missing.`);

    expect(run.events.map((e) => `${e['event']} ${e['node']}`)).toEqual([
      'node.entered requirements',
      'gate.evaluated requirements',
      'harness.invoked requirements',
      'harness.exited requirements',
      'gate.evaluated requirements',
      'node.entered tasks',
      'gate.evaluated tasks',
      'harness.invoked tasks',
      'harness.exited tasks',
      'gate.evaluated tasks',
      'node.entered approval',
      'gate.evaluated approval',
      'node.parked approval',
      'run.finished approval',
    ]);
    for (const event of run.events) expect(event).toMatchObject({ requestId: run.result['requestId'], workItem: ID, at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(await p.state()).toMatchObject({ currentNode: 'approval', parked: { node: 'approval', reason: 'waiting on a person' } });
    const log = await p.read(`${DIR}/execution-log.md`);
    expect(log).toMatch(/\| requirements \| \[claude\/default\] \| 1 \| 1200 \| 340 \| 0\.0123 \|/);
    expect(log).toContain('| requirements | tasks | pass |');
  });

  it('on entering a node picks its stage\'s model (--model overrides it) and discloses only that node\'s reference material', async () => {
    const routing = ['tokenEconomy:', '  modelRouting:', '    tiers: {frontier: {claude: claude-opus-4, cursor: gpt-5}}', '    stages: {requirements: frontier}'];
    const withReference = config({ requirements: ', stage: requirements, references: [docs/reference/requirements.md]' });
    const p = await project(`${routing.join('\n')}\n${withReference}`, { 'docs/reference/requirements.md': 'Name every actor.\n' });
    await p.run(['--max-nodes', '1'], [{ write: { [`${DIR}/requirements.md`]: LOCKED } }]);
    await p.run(['--model', 'claude-haiku-4'], [{ write: { [`${DIR}/tasks.md`]: '- [x] done\n' } }]);
    const [requirements, tasks] = await p.prompts();
    expect(requirements?.argv.slice(3, 5)).toEqual(['--model', 'claude-opus-4']);
    expect(requirements?.prompt).toContain('Reference material for this node, docs/reference/requirements.md:\n<<<\nName every actor.\n>>>');
    expect(tasks?.argv.slice(3, 5)).toEqual(['--model', 'claude-haiku-4']);
    expect(tasks?.prompt).not.toContain('Name every actor.');
  });

  it('leaves the graph through its last node: complete, the run\'s total in Run usage and a Learnings entry opened', async () => {
    const last = config()
      .replace("      - {id: approval, phase: implementation, actor: human, produces: tasks.md, gate: [{approved: tasks.md}]}\n", '')
      .replace('      - {from: tasks, to: approval, on: pass}\n', '');
    const p = await project(last, { [`${DIR}/execution-log.md`]: `${LOG}\n## Learnings\n\n- Greetings need a fallback name.\n` });
    const run = await p.run(['--format', 'text'], [{ write: { [`${DIR}/requirements.md`]: LOCKED } }, { write: { [`${DIR}/tasks.md`]: '- [x] done\n' } }]);

    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^issue-7: complete at \(left the graph\) — the work item left the graph through its last node\n {2}requirements {13}pass {13}1 attempt {2}session 8d3c0b1e-0000-4000-8000-000000000001\n/);
    const log = await p.read(`${DIR}/execution-log.md`);
    expect(log).toMatch(/\| \(run total\) \| — \| 2 \| 2400 \| 680 \| 0\.0246 \|/);
    expect(log).toMatch(/- Greetings need a fallback name\.\n- \S+: run \S+ took the work item out of the graph after 2 nodes and 2 harness runs \(2400 input and 680 output tokens, \$0\.0246\)/);
    expect(await p.state()).toMatchObject({ currentNode: null });
  });
});

describe('the-loop run: attempts, timeouts and escalation', () => {
  it('re-dispatches a wrong artifact with the new findings named, and escalates after maxAttempts with conflicts.md written', async () => {
    const p = await project(config({ requirements: ', maxAttempts: 3' }));
    const inReview = '---\ntitle: Greeting\nstatus: in-review\n---\n# Requirements\n';
    const run = await p.run([], [{}, { write: { [`${DIR}/requirements.md`]: DRAFT } }, { write: { [`${DIR}/requirements.md`]: inReview } }]);

    expect(run.code).toBe(1);
    // This graph declares no `escalated` node: the escalation is recorded and the item stays put.
    expect(run.result).toMatchObject({ status: 'escalated', currentNode: 'requirements', nodesRun: [{ node: 'requirements', attempts: 3, outcome: 'escalated' }] });
    const prompts = (await p.prompts()).map((r) => r.prompt);
    expect(prompts).toHaveLength(3);
    // The agent wrote nothing: the next prompt names the missing artifact again, as attempt 2.
    expect(prompts[1]).toContain('phase requirements-definition, attempt 2 of 3.');
    expect(prompts[1]).toContain(`- ${DIR}/requirements.md artifact-missing: requirements.md is missing.`);
    // It wrote a draft: the third prompt names exactly that new finding.
    expect(prompts[2]).toContain('attempt 3 of 3.');
    expect(prompts[2]).toContain(`- ${DIR}/requirements.md:2:9 artifact-unlocked: requirements.md is not locked: front-matter status is "draft".`);
    expect(prompts[2]).not.toContain('artifact-missing');
    const state = await p.state();
    expect(state).toMatchObject({ currentNode: 'requirements', parked: { node: 'requirements' }, escalated: { node: 'requirements', reason: '3 unmet attempts at "requirements" (maxAttempts 3)' }, nodes: { requirements: { attempts: 3 } } });
    const conflicts = await p.read(`${DIR}/conflicts.md`);
    expect(conflicts).toContain('escalated at requirements');
    // The file names the work item and the node in the command a person runs, nothing to fill in.
    expect(conflicts).toContain(`Escalations the-loop recorded for ${ID}.`);
    expect(conflicts).toContain(`- Resolve: \`the-loop graph force ${ID} --to requirements --reason "<what was fixed>"\` moves the work item back to requirements`);
    expect(conflicts).not.toContain('<id>');
    expect(conflicts).toContain('- Unmet attempts: 3');
    expect(conflicts).toContain(`  - ${DIR}/requirements.md:3:9 artifact-unlocked: requirements.md is not locked: front-matter status is "in-review".`);
    expect(conflicts).toMatch(/ {2}- attempt 1 \(claude\/default, session 8d3c0b1e-0000-4000-8000-000000000001\): the harness finished; 1 finding unmet \(artifact-missing\)/);
    expect(conflicts).toMatch(/ {2}- attempt 3 \(claude\/default, session [0-9a-f-]+\): the harness finished; 1 finding unmet \(artifact-unlocked\)/);
    expect(run.events.filter((e) => e['event'] === 'node.escalated')).toHaveLength(1);
    // A run started on the escalated item runs nothing and says the command that resolves it.
    const again = await p.run([]);
    expect(again.result).toMatchObject({ status: 'escalated', nodesRun: [] });
    expect(again.result['reason']).toContain(`a person resolves it with \`the-loop graph force ${ID} --to requirements --reason <why>\``);
  });

  it('kills a hung harness with its whole process group at the node\'s timeoutSeconds and records the attempt', async () => {
    const p = await project(config({ requirements: ', maxAttempts: 1, timeoutSeconds: 2' }));
    const pidfile = join(p.dir, '.grandchild.pid');
    // The node's 2 s count from when the stand-in has started its grandchild, however slowly Node starts it.
    const run = await withClockAfter(pidfile, 2000, () => p.run([], [{ mode: 'hang-grandchild' }], { STANDIN_PIDFILE: pidfile }));

    expect(run.code).toBe(1);
    expect(run.result).toMatchObject({ status: 'escalated', nodesRun: [{ node: 'requirements', attempts: 1, outcome: 'escalated' }] });
    const exited = run.events.find((e) => e['event'] === 'harness.exited');
    expect(exited).toMatchObject({ timedOut: true, exitCode: null, failure: 'timed out after 2 s; the process group was terminated' });
    const grandchild = Number(await readFile(pidfile, 'utf8'));
    // SIGKILL is delivered at once; a loaded machine may take a moment to tear the process down.
    await expect.poll(() => isAlive(grandchild), { timeout: 3000, interval: 50 }).toBe(false);
    expect(await p.state()).toMatchObject({ nodes: { requirements: { attempts: 1 } }, escalated: { node: 'requirements' } });
    expect(await p.read(`${DIR}/conflicts.md`)).toContain('timed out after 2 s; the process group was terminated');
  });

  it('resumes a run killed mid-node: kills the harness it left, records the half-finished attempt and re-dispatches', async () => {
    const p = await project(config());
    const script = JSON.stringify([{ mode: 'hang' }]);
    const aside = await mkdtemp(join(tmpdir(), 'the-loop-agent-'));
    await writeFile(join(aside, 'script.json'), script);
    // The killed run cannot remove its prompt's scratch folder: it is left in the test's temporary folder.
    const env = { PATH: STANDIN_PATH, TMPDIR: tmpdir(), STANDIN_SCRIPT: join(aside, 'script.json'), STANDIN_RECORD: p.record };
    // Synchronise on what the run reports: once it says the harness runs, kill the run outright.
    const child = spawn(process.execPath, [BIN, 'run', ID, '--request-id', 'first'], { cwd: p.dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const invoked = await new Promise<Record<string, unknown>>((resolve, reject) => {
      let buffered = '';
      child.stderr.on('data', (chunk: Buffer) => {
        buffered += chunk.toString('utf8');
        for (const line of buffered.split('\n').slice(0, -1)) {
          const event = JSON.parse(line) as Record<string, unknown>;
          if (event['event'] === 'harness.invoked') resolve(event);
        }
        buffered = buffered.slice(buffered.lastIndexOf('\n') + 1);
      });
      void exited.then((code) => reject(new Error(`the run ended (exit ${code}) before it started the harness`)));
    });
    // The run reports the harness started; the harness reports it took its step (its record line).
    await recordedOnce(p.record);
    child.kill('SIGKILL');
    expect(await exited).toBeNull();
    const orphan = invoked['pid'] as number;
    // Whatever happens below, the hanging harness this test left does not outlive it.
    onTestFinished(() => {
      if (isAlive(orphan)) process.kill(-orphan, 'SIGKILL');
    });
    expect(isAlive(orphan)).toBe(true);
    expect(existsSync(join(p.dir, '.the-loop/local/in-flight', `${ID}.json`))).toBe(true);

    await writeFile(join(aside, 'script.json'), JSON.stringify([{ mode: 'hang' }, { write: { [`${DIR}/requirements.md`]: LOCKED } }]));
    const resumed = await runWithStandins(['run', ID, '--max-nodes', '2'], { cwd: p.dir, env });
    const result = JSON.parse(resumed.stdout);
    await expect.poll(() => isAlive(orphan), { timeout: 3000, interval: 50 }).toBe(false);
    expect(result.nodesRun).toEqual([
      { node: 'requirements', attempts: 1, outcome: 'interrupted', sessionId: null },
      { node: 'requirements', attempts: 1, outcome: 'pass', sessionId: expect.any(String) },
    ]);
    expect(result).toMatchObject({ status: 'budget-exhausted', currentNode: 'tasks' });
    const prompts = await recorded(p.record);
    expect(prompts.at(-1)?.prompt).toContain('attempt 2 of 5.');
    expect(prompts.at(-1)?.prompt).toMatch(/The previous attempt did not finish: run first was killed during an attempt it started at \S+/);
    expect((await p.state()).nodes.requirements).toMatchObject({ attempts: 1, outcome: 'pass' });
    expect(existsSync(join(p.dir, '.the-loop/local/in-flight', `${ID}.json`))).toBe(false);
  });
});

describe('the-loop run: requests, choices and contracts', () => {
  it('returns the stored result byte for byte for a repeated request id and runs nothing', async () => {
    const p = await project(config());
    const first = await p.run(['--request-id', 'nightly-42'], [{ write: { [`${DIR}/requirements.md`]: LOCKED } }, { write: { [`${DIR}/tasks.md`]: '- [x] done\n' } }]);
    const again = await p.run(['--request-id', 'nightly-42']);

    expect(first.code).toBe(0);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(first.stdout);
    expect(again.stderr).toBe('');
    expect(await p.prompts()).toHaveLength(2);
    expect(await readFile(join(p.dir, '.the-loop/local/runs/nightly-42.json'), 'utf8')).toBe(first.stdout);
    expect(first.result['requestId']).toBe('nightly-42');
    const text = await runWithStandins(['run', ID, '--request-id', 'nightly-42', '--format', 'text'], { cwd: p.dir });
    expect(text.stdout).toContain('issue-7: parked at approval — "approval" waits on a person');
  });

  it('ends budget-exhausted when --budget-seconds runs out, killing the harness that was still working', async () => {
    const p = await project(config());
    const run = await p.run(['--budget-seconds', '1.5'], [{ mode: 'hang' }]);

    expect(run.code).toBe(1);
    expect(run.result).toMatchObject({ status: 'budget-exhausted', reason: expect.stringContaining('--budget-seconds 1.5') });
    // Whether the harness started before the budget was spent depends on the machine; one that ran was killed.
    for (const exited of run.events.filter((e) => e['event'] === 'harness.exited')) expect(exited).toMatchObject({ timedOut: true });
  });

  it('falls back to the static edge when the agent picks a node outside the declared set, and logs both in decisions', async () => {
    const p = await project(
      config({ tasks: ', choices: [approval, requirements]' }).replace('      - {from: tasks, to: approval, on: pass}', '      - {from: tasks, to: approval, on: pass}\n      - {from: tasks, to: requirements, on: rework}'),
    );
    await writeFile(join(p.dir, '.the-loop/harness-config.yaml'), (await p.read('.the-loop/harness-config.yaml')).replace('workflow:\n', 'workflow:\n  harness: cursor\n'));
    const run = await p.run(
      ['--max-nodes', '2'],
      [{ write: { [`${DIR}/requirements.md`]: LOCKED } }, { write: { [`${DIR}/tasks.md`]: '- [x] done\n' } }, { answer: { next: 'deploy', reason: 'it is ready' } }],
    );

    expect(run.code).toBe(1);
    expect(run.result).toMatchObject({ status: 'budget-exhausted', currentNode: 'approval' });
    const ask = (await p.prompts())[2];
    // cursor-agent has no structured-output flag: the question asks for the JSON, the answer is checked.
    expect(ask?.argv.slice(0, 5)).toEqual(['--print', '--output-format', 'json', '--trust', '--resume']);
    expect(ask?.prompt).toContain('You may choose only one of these declared nodes:\n- approval: phase implementation, actor human, produces tasks.md\n- requirements:');
    expect((await p.state()).decisions).toEqual([
      { node: 'tasks', requested: 'deploy', taken: 'approval', via: 'fallback', reason: 'choice "deploy" is not one of approval, requirements: the agent\'s reason: "it is ready"', at: expect.any(String) },
    ]);
    expect(run.events.find((e) => e['event'] === 'choice.decided')).toMatchObject({ node: 'tasks', requested: 'deploy', taken: 'approval', via: 'fallback' });
  });

  it('takes a choice from the declared set, asked of claude with --json-schema', async () => {
    const p = await project(
      config({ tasks: ', choices: [approval, requirements]' }).replace('      - {from: tasks, to: approval, on: pass}', '      - {from: tasks, to: approval, on: pass}\n      - {from: tasks, to: requirements, on: rework}'),
    );
    const run = await p.run(['--max-nodes', '2'], [{ write: { [`${DIR}/requirements.md`]: LOCKED } }, { write: { [`${DIR}/tasks.md`]: '- [x] done\n' } }, { answer: { next: 'requirements', reason: 'the requirements miss a case' } }]);

    expect(run.result).toMatchObject({ status: 'budget-exhausted', currentNode: 'requirements' });
    const ask = (await p.prompts())[2];
    expect(ask?.argv).toContain('--json-schema');
    expect(JSON.parse(ask?.argv.at(-1) ?? '{}')).toMatchObject({ properties: { next: { enum: ['approval', 'requirements'] } } });
    expect((await p.state()).decisions).toEqual([{ node: 'tasks', requested: 'requirements', taken: 'requirements', via: 'choice', reason: 'the requirements miss a case', at: expect.any(String) }]);
  });

  it('refuses bad options and configuration with exit 2, running nothing', async () => {
    const p = await project(config());
    const refused = async (args: string[], message: string | RegExp, configText?: string) => {
      if (configText !== undefined) await writeFile(join(p.dir, '.the-loop/harness-config.yaml'), configText);
      const run = await p.run(args);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(message);
    };
    await refused(['--harness', 'vim'], 'the-loop: --harness must be one of claude, cursor; got "vim"');
    await refused(['--max-nodes', '0'], '--max-nodes must be a whole number of at least 1; got "0"');
    await refused(['--budget-seconds', '.inf'], '--budget-seconds must be a finite number of seconds greater than 0');
    await refused(['--request-id', '../x'], '--request-id "../x" must be 1–128 letters');
    await refused([], /\.the-loop\/harness-config\.yaml:2:12 {2}workflow\.harness: no harness named "vim" \(known: claude, cursor\)/, config().replace('workflow:\n', 'workflow:\n  harness: vim\n'));
    await refused([], /tokenEconomy\.modelRouting\.stages\.design: tier "huge" is not declared/, `tokenEconomy: {modelRouting: {stages: {design: huge}}}\n${config()}`);
    await refused([], /reference docs\/ref\.md of node "requirements" does not exist/, config({ requirements: ', references: [docs/ref.md]' }));
    await symlink('/etc/hostname', join(p.dir, 'docs/outside.md'));
    await refused([], /reference docs\/outside\.md of node "requirements" cannot be read: it is a symbolic link out of the repository/, config({ requirements: ', references: [docs/outside.md]' }));
    spawnSync('mkfifo', [join(p.dir, 'docs/pipe.md')]);
    await refused([], /reference docs\/pipe\.md of node "requirements" cannot be read: it is a FIFO \(named pipe\), not a regular file/, config({ requirements: ', references: [docs/pipe.md]' }));
    await writeFile(join(p.dir, '.the-loop/harness-config.yaml'), config());
    const noClaude = await runWithStandins(['run', ID], { cwd: p.dir, env: { PATH: STANDIN_PATH.split(':').slice(1).join(':') } });
    expect(noClaude).toMatchObject({ code: 2, stdout: '' });
    expect(noClaude.stderr).toContain('claude (Claude Code) was not found on PATH');
    expect(await p.prompts()).toHaveLength(0);
  });
});
