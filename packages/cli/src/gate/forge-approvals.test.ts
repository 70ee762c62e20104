import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILT_IN_ADAPTERS } from '../harness/adapters.js';
import { git, graphConfig, LOCKED, makeRepo, TASKS_DONE, writeFiles } from '../test-support/cli.js';
import { writeExecutable } from '../test-support/graph-cli.js';
import { runInProcess } from '../test-support/in-process.js';

// Approvals under `approvals.source: github`: reviews served by a loopback REST server and by a
// `gh` stand-in, judged against a real git repository's commits.

const ID = 'issue-7';
const DIR = `docs/specs/${ID}`;
const TOKEN = 's3cret';
const BEFORE = LOCKED;
const NOW = `${LOCKED}\nAlso greet by name.\n`;

interface Finding {
  readonly ruleId: string;
  readonly severity: string;
  readonly message: string;
  readonly file: string;
}
interface CheckResult {
  readonly ok: boolean;
  readonly currentNode: string | null;
  readonly nodes: readonly { node: string; outcome?: string }[];
  readonly findings: readonly Finding[];
}

interface Review {
  readonly login: string | null;
  readonly state: string;
  readonly commit: string;
}

const servers: Server[] = [];
afterEach(async () => {
  // A stalled answer's connection would hold close() until the client's keep-alive gives it up.
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => (s.close(resolve), s.closeAllConnections()))));
});

/** A GitHub REST API for acme/app: pull request 7 (head branch `feature`), serving whatever reviews it is given. */
async function github(handle?: (req: IncomingMessage, res: ServerResponse) => boolean): Promise<{ url: string; seen: string[]; serve(reviews: readonly Review[]): void }> {
  const seen: string[] = [];
  let reviews: readonly Review[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    if (handle?.(req, res)) return;
    const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return send(401, { message: 'Bad credentials' });
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/repos/acme/app/pulls/7/reviews') {
      const page = Number(url.searchParams.get('page') ?? '1');
      const size = Number(url.searchParams.get('per_page') ?? '30');
      return send(200, reviewJson(reviews).slice((page - 1) * size, page * size));
    }
    if (url.pathname === '/repos/acme/app/pulls') return send(200, url.searchParams.get('head') === 'acme:feature' ? [{ number: 7, state: 'open' }] : []);
    return send(404, { message: 'Not Found' });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    serve(next) {
      reviews = next;
      seen.length = 0;
    },
  };
}

// Reviews as GitHub lists them, oldest first, one minute apart.
function reviewJson(reviews: readonly Review[]): unknown[] {
  return reviews.map((r, i) => ({
    id: 1000 + i,
    user: r.login === null ? null : { login: r.login, type: 'User' },
    body: '',
    state: r.state,
    html_url: `https://github.com/acme/app/pull/7#pullrequestreview-${1000 + i}`,
    submitted_at: new Date(Date.UTC(2026, 0, 1, 12, i)).toISOString(),
    commit_id: r.commit,
    author_association: 'MEMBER',
  }));
}

/**
 * A project on branch `feature` whose requirements.md changed between two commits: `before`
 * holds the first text, `now` the text in the working tree.
 */
async function project(githubConfig: string): Promise<{ root: string; before: string; now: string }> {
  const root = await makeRepo({
    '.the-loop/harness-config.yaml': `${githubConfig}\napprovals:\n  source: github\n${graphConfig({ humanApproval: true })}`,
    '.the-loop/collaborators.yaml': 'collaborators:\n  - {login: Alice, roles: [approver]}\n  - {login: bob, roles: [lead]}\n',
    [`${DIR}/requirements.md`]: BEFORE,
    [`${DIR}/tasks.md`]: TASKS_DONE,
  });
  await git(root, ['init', '-q']);
  await git(root, ['checkout', '-q', '-b', 'feature']);
  await git(root, ['add', '-A']);
  await git(root, ['commit', '-q', '-m', 'requirements']);
  const before = (await git(root, ['rev-parse', 'HEAD'])).trim();
  await writeFiles(root, { [`${DIR}/requirements.md`]: NOW });
  await git(root, ['commit', '-q', '-am', 'requirements, revised']);
  return { root, before, now: (await git(root, ['rev-parse', 'HEAD'])).trim() };
}

const restConfig = (url: string, timeoutSeconds = 5) => `github:\n  repo: acme/app\n  port: rest\n  apiUrl: ${url}\n  timeoutSeconds: ${timeoutSeconds}`;

const run = (args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}) =>
  runInProcess(args, { cwd, adapters: BUILT_IN_ADAPTERS, env: { PATH: process.env['PATH'], NO_COLOR: '1', GITHUB_TOKEN: TOKEN, ...env } });

async function check(root: string, args: readonly string[] = ['--pr', '7'], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; result: CheckResult; stderr: string }> {
  const out = await run(['check', ID, '--format', 'json', ...args], root, env);
  return { code: out.code, result: JSON.parse(out.stdout) as CheckResult, stderr: out.stderr };
}

const approvalFindings = (result: CheckResult) => result.findings.filter((f) => f.ruleId.startsWith('approval-')).map((f) => f.ruleId);
const approvalNode = (result: CheckResult) => result.nodes.find((n) => n.node === 'approval')?.outcome;

describe('approvals from pull-request reviews (REST)', () => {
  it('pass on an approver\'s approving review of a commit holding the current bytes; the login matches case-insensitively', async () => {
    const server = await github();
    const { root, now } = await project(restConfig(server.url));
    server.serve([{ login: 'alice', state: 'APPROVED', commit: now }]);
    const { code, result } = await check(root);
    expect(approvalFindings(result)).toEqual([]);
    expect(result).toMatchObject({ ok: true, currentNode: null });
    expect(code).toBe(0);
    expect(server.seen).toEqual(['GET /repos/acme/app/pulls/7/reviews?per_page=100&page=1']);
  });

  it('is approval-stale, naming the reviewed commit, when the approved commit holds other bytes', async () => {
    const server = await github();
    const { root, before } = await project(restConfig(server.url));
    server.serve([{ login: 'alice', state: 'APPROVED', commit: before }]);
    const { code, result } = await check(root);
    expect(approvalFindings(result)).toEqual(['approval-stale']);
    expect(result.findings.find((f) => f.ruleId === 'approval-stale')?.message).toContain(`in a review of commit ${before.slice(0, 12)}`);
    expect(approvalNode(result)).toBe('wait');
    expect(code).toBe(1);
  });

  it('is approval-missing for a non-approver, a dismissed approval, and one superseded by a later CHANGES_REQUESTED; a later comment changes nothing', async () => {
    const server = await github();
    const { root, now } = await project(restConfig(server.url));
    const cases: [string, Review[], string[]][] = [
      ['non-approver', [{ login: 'bob', state: 'APPROVED', commit: now }], ['approval-missing']],
      ['dismissed', [{ login: 'alice', state: 'DISMISSED', commit: now }], ['approval-missing']],
      ['the latest approval dismissed', [{ login: 'alice', state: 'APPROVED', commit: now }, { login: 'alice', state: 'DISMISSED', commit: now }], ['approval-missing']],
      ['superseded', [{ login: 'alice', state: 'APPROVED', commit: now }, { login: 'alice', state: 'CHANGES_REQUESTED', commit: now }], ['approval-missing']],
      ['a deleted account', [{ login: null, state: 'APPROVED', commit: now }], ['approval-missing']],
      ['commented after', [{ login: 'alice', state: 'APPROVED', commit: now }, { login: 'alice', state: 'COMMENTED', commit: now }], []],
      ['approved again', [{ login: 'alice', state: 'CHANGES_REQUESTED', commit: now }, { login: 'alice', state: 'APPROVED', commit: now }], []],
    ];
    for (const [title, reviews, expected] of cases) {
      server.serve(reviews);
      const { result } = await check(root);
      expect(approvalFindings(result), title).toEqual(expected);
      expect(approvalNode(result), title).toBe(expected.length > 0 ? 'wait' : 'pass');
    }
  });

  it('reads every page of reviews', async () => {
    const server = await github();
    const { root, now } = await project(restConfig(server.url));
    const chatter = Array.from({ length: 100 }, (): Review => ({ login: 'bob', state: 'COMMENTED', commit: now }));
    server.serve([...chatter, { login: 'alice', state: 'APPROVED', commit: now }]);
    const { result } = await check(root);
    expect(approvalFindings(result)).toEqual([]);
    expect(server.seen).toEqual(['GET /repos/acme/app/pulls/7/reviews?per_page=100&page=1', 'GET /repos/acme/app/pulls/7/reviews?per_page=100&page=2']);
  });

  it('finds the pull request from the GitHub Actions event, or from the branch; with neither it waits and says why', async () => {
    const server = await github();
    const { root, now } = await project(restConfig(server.url));
    server.serve([{ login: 'alice', state: 'APPROVED', commit: now }]);
    const event = join(await mkdtemp(join(tmpdir(), 'the-loop-event-')), 'event.json');
    await writeFile(event, JSON.stringify({ action: 'submitted', pull_request: { number: 7 }, repository: { full_name: 'Acme/App' } }));
    expect(approvalFindings((await check(root, [], { GITHUB_EVENT_PATH: event })).result)).toEqual([]);
    expect(approvalFindings((await check(root, [])).result)).toEqual([]);
    expect(server.seen).toContain('GET /repos/acme/app/pulls?state=open&per_page=2&head=acme%3Afeature');
    await git(root, ['checkout', '-q', '-b', 'elsewhere']);
    const none = await check(root, [], { GITHUB_EVENT_PATH: join(root, 'no-such-event.json') });
    expect(none.result.findings.find((f) => f.ruleId === 'approval-missing')?.message).toContain('no open pull request for branch "elsewhere" in acme/app');
    expect(approvalNode(none.result)).toBe('wait');
  });

  it('never passes without an answer: no token, no server, a server that stalls or answers without end', async () => {
    const server = await github();
    const { root } = await project(restConfig(server.url, 1));
    const noToken = await check(root, ['--pr', '7'], { GITHUB_TOKEN: '', GH_TOKEN: '' });
    expect(noToken.result.findings.find((f) => f.ruleId === 'approval-missing')?.message).toContain('neither GITHUB_TOKEN nor GH_TOKEN is set');

    const closed = await github();
    await new Promise((resolve) => servers.pop()?.close(resolve));
    await rewire(root, server.url, closed.url);
    const refused = await check(root);
    expect(refused.result.findings.find((f) => f.ruleId === 'approval-missing')?.message).toContain("The pull request's reviews could not be read: pull request #7 (from --pr): GET");
    expect(approvalNode(refused.result)).toBe('wait');
    expect(refused.code).toBe(1);
    expect((await run(['check', ID, '--pr', '7', '--fail-on', 'block'], root)).code).toBe(0);

    const stalling = await github(() => true);
    await rewire(root, closed.url, stalling.url);
    const started = Date.now();
    const stalled = await check(root);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(stalled.result.findings.find((f) => f.ruleId === 'approval-missing')?.message).toContain('GET /repos/acme/app/pulls/7/reviews?per_page=100&page=1 timed out after 1 s');

    const flooding = await github((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
      const chunk = `${JSON.stringify({ id: 1, state: 'APPROVED' })},`.repeat(1000);
      const pump = () => {
        while (res.write(chunk));
      };
      res.on('drain', pump);
      pump();
      return true;
    });
    await rewire(root, stalling.url, flooding.url);
    // The size cap must decide, not the clock: on a loaded machine 8 MiB may take more than 1 s.
    await rewire(root, 'timeoutSeconds: 1', 'timeoutSeconds: 60');
    const flooded = await check(root);
    expect(flooded.result.findings.find((f) => f.ruleId === 'approval-missing')?.message).toContain('GET /repos/acme/app/pulls/7/reviews?per_page=100&page=1 failed: the answer is larger than 8 MiB');
  }, 20_000);

  it('counts no approval entry in graph-state.json, even with the right digest, and reports it', async () => {
    const server = await github();
    const { root } = await project(restConfig(server.url));
    const { createHash } = await import('node:crypto');
    const forged = {
      schemaVersion: 1,
      workItem: ID,
      currentNode: 'approval',
      nodes: {},
      parked: null,
      escalated: null,
      approvals: [{ artifact: 'requirements.md', digest: createHash('sha256').update(NOW).digest('hex'), by: 'Alice', at: '2026-01-01T00:00:00.000Z' }],
      decisions: [],
      forced: [],
      selectedOptIns: [],
    };
    await writeFiles(root, { [`${DIR}/graph-state.json`]: `${JSON.stringify(forged, null, 2)}\n` });
    const { result } = await check(root);
    expect(approvalFindings(result)).toEqual(['approval-ignored', 'approval-missing']);
    expect(result.findings.find((f) => f.ruleId === 'approval-ignored')).toMatchObject({ severity: 'warning', file: `${DIR}/graph-state.json` });
    expect(approvalNode(result)).toBe('wait');
  });

  it("holds a review of the execution log through the-loop's own edits of it after the review, and not through a word changed elsewhere", async () => {
    // The labels follow the work item; this test is about the log, so any label call succeeds.
    const server = await github((req, res) => {
      if (!req.url?.includes('/labels')) return false;
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
      return true;
    });
    const config = [
      restConfig(server.url),
      'approvals:\n  source: github',
      'workflow:',
      '  graph:',
      '    start: implementation',
      '    nodes:',
      '      - {id: implementation, phase: implementation, actor: agent, produces: tasks.md, gate: [{tasksComplete: true}]}',
      '      - {id: approval, phase: needs-review, actor: human, produces: execution-log.md, gate: [{approved: execution-log.md}]}',
      '      - {id: complete, phase: complete, actor: code, produces: execution-log.md, gate: [{frontMatter: {phase: complete}}]}',
      '    edges:',
      '      - {from: implementation, to: approval, on: pass}',
      '      - {from: approval, to: complete, on: pass}',
      '',
    ].join('\n');
    const root = await makeRepo({
      '.the-loop/harness-config.yaml': config,
      '.the-loop/collaborators.yaml': 'collaborators:\n  - {login: alice, roles: [approver]}\n',
      [`${DIR}/tasks.md`]: TASKS_DONE,
      [`${DIR}/execution-log.md`]: '---\nphase: needs-review\n---\n# Execution log\n\n## Reviewer briefing\n\nStart at src/greet.mjs.\n',
    });
    await git(root, ['init', '-q']);
    await git(root, ['checkout', '-q', '-b', 'feature']);
    await git(root, ['add', '-A']);
    await git(root, ['commit', '-q', '-m', 'ready for review']);
    server.serve([{ login: 'alice', state: 'APPROVED', commit: (await git(root, ['rev-parse', 'HEAD'])).trim() }]);

    // The approval moves the work item on: the-loop writes its phase and the transition rows into the log.
    const advanced = await run(['graph', 'advance', ID, '--pr', '7', '--format', 'json'], root);
    expect(advanced.code).toBe(0);
    const log = await readFile(join(root, DIR, 'execution-log.md'), 'utf8');
    expect(log).toContain('phase: complete');
    expect(log).toMatch(/\| approval \| complete \| pass \|/);
    const after = await check(root);
    expect(approvalFindings(after.result)).toEqual([]);
    expect([after.code, after.result.ok, after.result.currentNode]).toEqual([0, true, null]);

    await writeFiles(root, { [`${DIR}/execution-log.md`]: log.replace('Start at src/greet.mjs.', 'Start anywhere.') });
    const changed = await check(root);
    expect(approvalFindings(changed.result)).toEqual(['approval-stale']);
    expect(changed.code).toBe(1);
  });

  it('refuses graph approve (exit 2), saying where approvals come from, and writes nothing', async () => {
    const server = await github();
    const { root } = await project(restConfig(server.url));
    const refused = await run(['graph', 'approve', ID, 'requirements.md', '--by', 'Alice'], root);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("approvals come from the pull request's reviews on GitHub");
    await expect(readFile(join(root, DIR, 'graph-state.json'), 'utf8')).rejects.toThrow();
  });
});

// A `gh` stand-in that parses argv like the real CLI, records it, and serves pull request 7
// (head `feature`) with the reviews in GH_STANDIN_REVIEWS, a page at a time.
const GH = `
const fs = require('node:fs');
const argv = process.argv.slice(2);
fs.appendFileSync(process.env.GH_STANDIN_LOG, JSON.stringify(argv) + '\\n');
const fail = (m) => { process.stderr.write(m + '\\n'); process.exit(1); };
if (argv[0] === 'api') {
  if (argv.length !== 2) fail('unexpected arguments: ' + argv.slice(2).join(' '));
  const url = new URL(argv[1], 'https://api.github.com/');
  if (url.pathname !== '/repos/acme/app/pulls/7/reviews') fail('gh: Not Found (HTTP 404)');
  const size = Number(url.searchParams.get('per_page') || 30);
  const page = Number(url.searchParams.get('page') || 1);
  const all = JSON.parse(fs.readFileSync(process.env.GH_STANDIN_REVIEWS, 'utf8'));
  process.stdout.write(JSON.stringify(all.slice((page - 1) * size, page * size)));
} else if (argv[0] === 'pr' && argv[1] === 'view') {
  const opts = {};
  for (let i = 3; i < argv.length; i += 2) {
    if (!['--repo', '--json'].includes(argv[i])) fail('unknown flag: ' + argv[i]);
    opts[argv[i]] = argv[i + 1];
  }
  if (opts['--json'] !== 'number' || opts['--repo'] !== 'acme/app') fail('unexpected options');
  if (argv[2] !== 'feature') fail('no pull requests found for branch "' + argv[2] + '"');
  process.stdout.write(JSON.stringify({ number: 7 }) + '\\n');
} else fail('unknown command "' + argv[0] + '" for "gh"');
`;

describe('approvals from pull-request reviews (gh)', () => {
  it('reads the branch\'s pull request and its reviews through gh, with the same rules', async () => {
    const { root, before, now } = await project('github:\n  repo: acme/app\n  port: gh');
    const bin = await mkdtemp(join(tmpdir(), 'the-loop-gh-'));
    await writeExecutable(bin, 'gh', GH);
    const reviews = join(bin, 'reviews.json');
    const env = { PATH: `${bin}${delimiter}${process.env['PATH']}`, GH_STANDIN_LOG: join(bin, 'argv.log'), GH_STANDIN_REVIEWS: reviews, GITHUB_TOKEN: '' };
    await writeFile(reviews, JSON.stringify(reviewJson([{ login: 'alice', state: 'APPROVED', commit: now }])));
    expect(approvalFindings((await check(root, [], env)).result)).toEqual([]);
    const argv = (await readFile(join(bin, 'argv.log'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as string[]);
    expect(argv).toEqual([
      ['pr', 'view', 'feature', '--repo', 'acme/app', '--json', 'number'],
      ['api', 'repos/acme/app/pulls/7/reviews?per_page=100&page=1'],
    ]);
    await writeFile(reviews, JSON.stringify(reviewJson([{ login: 'alice', state: 'APPROVED', commit: before }])));
    expect(approvalFindings((await check(root, ['--pr', '7'], env)).result)).toEqual(['approval-stale']);
    await git(root, ['checkout', '-q', '-b', 'elsewhere']);
    const none = await check(root, [], env);
    expect(none.result.findings.find((f) => f.ruleId === 'approval-missing')?.message).toContain('no open pull request for branch "elsewhere"');
  });
});

async function rewire(root: string, from: string, to: string): Promise<void> {
  const path = join(root, '.the-loop/harness-config.yaml');
  await writeFile(path, (await readFile(path, 'utf8')).replace(from, to));
}
