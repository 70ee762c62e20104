import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isAlive, withClockAfter } from '../test-support/cli-harness.js';
import { makeRepo, runWithoutTokens, writeExecutable } from '../test-support/graph-cli.js';

const ID = 'issue-7';
const DIR = `docs/specs/${ID}`;
const FILES = {
  [`${DIR}/requirements.md`]: '---\nstatus: approved\n---\n# Requirements\n',
  '.the-loop/collaborators.yaml': 'collaborators:\n  - {login: alice, roles: [approver]}\n  - {login: bob, roles: [lead]}\n',
};

// A stand-in for `gh` that parses argv like the real CLI (unknown flag → exit 1), records it,
// and keeps the issue's labels in a JSON file.
const GH = `
const fs = require('node:fs');
const argv = process.argv.slice(2);
fs.appendFileSync(process.env.GH_STANDIN_LOG, JSON.stringify(argv) + '\\n');
const fail = (m) => { process.stderr.write(m + '\\n'); process.exit(1); };
if (argv[0] !== 'issue') fail('unknown command "' + argv[0] + '" for "gh"');
const sub = argv[1];
const allowed = sub === 'view' ? ['--repo', '--json'] : sub === 'edit' ? ['--repo', '--add-label', '--remove-label'] : fail('unknown command "' + sub + '" for "gh issue"');
if (!/^\\d+$/.test(argv[2] || '')) fail('invalid issue number');
const opts = {};
for (let i = 3; i < argv.length; i += 2) {
  if (!allowed.includes(argv[i])) fail('unknown flag: ' + argv[i]);
  if (argv[i + 1] === undefined) fail('flag needs an argument: ' + argv[i]);
  opts[argv[i]] = argv[i + 1];
}
if (!opts['--repo']) fail('--repo is required here');
let labels = JSON.parse(fs.readFileSync(process.env.GH_STANDIN_LABELS, 'utf8'));
if (sub === 'view') {
  if (opts['--json'] !== 'labels') fail('Unknown JSON field: ' + opts['--json']);
  process.stdout.write(JSON.stringify({ labels: labels.map((name) => ({ id: 'L_' + name, name, description: '', color: 'ededed' })) }));
} else {
  const remove = (opts['--remove-label'] || '').split(',').filter(Boolean);
  labels = labels.filter((l) => !remove.includes(l));
  if (opts['--add-label'] && !labels.includes(opts['--add-label'])) labels.push(opts['--add-label']);
  fs.writeFileSync(process.env.GH_STANDIN_LABELS, JSON.stringify(labels));
  process.stdout.write('https://github.com/' + opts['--repo'] + '/issues/' + argv[2] + '\\n');
}
`;

const servers: Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

async function body(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text;
}

async function listen(handler: (req: IncomingMessage, text: string) => { status: number; json?: unknown }): Promise<string> {
  const server = createServer(async (req, res) => {
    const { status, json } = handler(req, await body(req));
    res.writeHead(status, { 'content-type': 'application/json' }).end(json === undefined ? '' : JSON.stringify(json));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

type Report = { kind: string; event: string; status: string; detail: string; label?: string };

describe('label effects', () => {
  it('replace only the loop:* label through the gh CLI', async () => {
    const root = await makeRepo({ ...FILES, '.the-loop/harness-config.yaml': 'github:\n  repo: acme/app\n  port: gh\n' });
    const bin = await mkdtemp(join(tmpdir(), 'the-loop-gh-'));
    await writeExecutable(bin, 'gh', GH);
    const labels = join(bin, 'labels.json');
    await writeFile(labels, JSON.stringify(['bug', 'loop:brainstorming', 'priority:high']));
    const env = { PATH: `${bin}${delimiter}${process.env.PATH}`, GH_STANDIN_LOG: join(bin, 'argv.log'), GH_STANDIN_LABELS: labels };
    const result = await runWithoutTokens(['graph', 'advance', ID, '--format', 'json'], { cwd: root, env });
    expect(result.code).toBe(0);
    const reports = result.json<{ effects: Report[] }>().effects.filter((e) => e.kind === 'set-label');
    expect(reports.map((r) => [r.label, r.status])).toEqual([
      ['loop:brainstorming', 'skipped'],
      ['loop:requirements-definition', 'done'],
    ]);
    expect(JSON.parse(await readFile(labels, 'utf8'))).toEqual(['bug', 'priority:high', 'loop:requirements-definition']);
    const argv = (await readFile(join(bin, 'argv.log'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    expect(argv).toEqual([
      ['issue', 'view', '7', '--repo', 'acme/app', '--json', 'labels'],
      ['issue', 'edit', '7', '--repo', 'acme/app', '--add-label', 'loop:requirements-definition', '--remove-label', 'loop:brainstorming'],
    ]);
  });

  it('replace only the loop:* label through the REST API, authenticated with GITHUB_TOKEN', async () => {
    let labels = ['bug', 'loop:design', 'loop:implementation', 'good first issue'];
    const seen: string[] = [];
    const url = await listen((req, text) => {
      seen.push(`${req.method} ${req.url}`);
      if (req.headers.authorization !== 'Bearer s3cret') return { status: 401, json: { message: 'Bad credentials' } };
      const base = '/repos/acme/app/issues/7/labels';
      const names = () => labels.map((name) => ({ id: 1, name, color: 'ededed', default: false }));
      if (req.method === 'GET' && req.url === `${base}?per_page=100`) return { status: 200, json: names() };
      if (req.method === 'POST' && req.url === base) {
        labels = [...new Set([...labels, ...(JSON.parse(text) as { labels: string[] }).labels])];
        return { status: 200, json: names() };
      }
      if (req.method === 'DELETE' && req.url?.startsWith(`${base}/`)) {
        const name = decodeURIComponent(req.url.slice(base.length + 1));
        if (!labels.includes(name)) return { status: 404, json: { message: 'Label does not exist' } };
        labels = labels.filter((l) => l !== name);
        return { status: 200, json: names() };
      }
      return { status: 404, json: { message: 'Not Found' } };
    });
    const root = await makeRepo({ ...FILES, '.the-loop/harness-config.yaml': `github:\n  repo: acme/app\n  port: rest\n  apiUrl: ${url}\n` });
    const result = await runWithoutTokens(['graph', 'advance', ID, '--format', 'json'], { cwd: root, env: { GITHUB_TOKEN: 's3cret' } });
    expect(result.code).toBe(0);
    expect(labels).toEqual(['bug', 'good first issue', 'loop:requirements-definition']);
    expect(seen).toEqual([
      'GET /repos/acme/app/issues/7/labels?per_page=100',
      'POST /repos/acme/app/issues/7/labels',
      'DELETE /repos/acme/app/issues/7/labels/loop%3Adesign',
      'DELETE /repos/acme/app/issues/7/labels/loop%3Aimplementation',
    ]);
  });

  it('fail (exit 1, state still saved) without a token, and are skipped without configuration', async () => {
    const rest = await makeRepo({ ...FILES, '.the-loop/harness-config.yaml': 'github: {repo: acme/app, port: rest, apiUrl: "http://127.0.0.1:9"}\n' });
    const failed = await runWithoutTokens(['graph', 'advance', ID, '--format', 'json'], { cwd: rest });
    expect(failed.code).toBe(1);
    const doc = failed.json<{ currentNode: string; effects: Report[] }>();
    expect(doc.currentNode).toBe('requirements-approval');
    expect(doc.effects.find((e) => e.kind === 'set-label' && e.status !== 'skipped')).toMatchObject({ status: 'failed', detail: expect.stringContaining('GITHUB_TOKEN') });
    const bare = await makeRepo(FILES);
    const skipped = await runWithoutTokens(['graph', 'advance', ID, '--format', 'json'], { cwd: bare });
    expect(skipped.code).toBe(0);
    expect(skipped.json<{ effects: Report[] }>().effects.filter((e) => e.kind === 'set-label').every((e) => e.status === 'skipped')).toBe(true);
  });
});

describe('notification effects', () => {
  it('tell the approvers through a command (JSON on stdin) and a webhook (POST JSON)', async () => {
    const posts: unknown[] = [];
    const url = await listen((req, text) => {
      posts.push({ method: req.method, type: req.headers['content-type'], body: JSON.parse(text) });
      return { status: 204 };
    });
    const dir = await mkdtemp(join(tmpdir(), 'the-loop-notify-'));
    const script = join(dir, 'notify.cjs');
    const out = join(dir, 'received.json');
    await writeFile(script, `let s='';process.stdin.on('data',c=>s+=c).on('end',()=>require('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify({argv: process.argv.slice(2), stdin: JSON.parse(s)})));`);
    const root = await makeRepo({
      ...FILES,
      '.the-loop/harness-config.yaml': `notifications:\n  command: [${JSON.stringify(process.execPath)}, ${JSON.stringify(script)}, "--channel", "a b; rm -rf /"]\n  webhook: ${url}/hook\n`,
    });
    const result = await runWithoutTokens(['graph', 'advance', ID, '--format', 'json'], { cwd: root });
    expect(result.code).toBe(0);
    const expected = { schemaVersion: 1, event: 'onAwaitHuman', workItem: ID, node: 'requirements-approval', roles: ['approver'], recipients: ['alice'], message: `${ID}: requirements-approval waits on a person` };
    expect(JSON.parse(await readFile(out, 'utf8'))).toEqual({ argv: ['--channel', 'a b; rm -rf /'], stdin: expected });
    expect(posts).toEqual([{ method: 'POST', type: 'application/json', body: expected }]);
    expect(result.json<{ effects: Report[] }>().effects.find((e) => e.kind === 'notify')).toMatchObject({ status: 'done', detail: 'sent via command node and webhook' });
  });

  it('fail a notification command that outlives its timeout, and kill what it started with it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'the-loop-notify-'));
    const script = join(dir, 'hang.cjs');
    const started = join(dir, 'helper.pid');
    // The command starts a helper that would run for a minute, says so (the pid file appears whole,
    // by a rename), then never exits itself.
    await writeFile(
      script,
      `const helper = require('node:child_process').spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' }); const fs = require('node:fs'); fs.writeFileSync(${JSON.stringify(`${started}.part`)}, String(helper.pid)); fs.renameSync(${JSON.stringify(`${started}.part`)}, ${JSON.stringify(started)}); setInterval(() => {}, 1000);`,
    );
    const root = await makeRepo({ ...FILES, '.the-loop/harness-config.yaml': `notifications:\n  command: [${JSON.stringify(process.execPath)}, ${JSON.stringify(script)}]\n  timeoutSeconds: 1\n` });
    // The command's clock moves only once it has started its helper: the timeout cannot come first.
    const result = await withClockAfter(started, 1000, () => runWithoutTokens(['graph', 'advance', ID, '--format', 'json'], { cwd: root }));
    expect(result.code).toBe(1);
    expect(result.json<{ effects: Report[] }>().effects.find((e) => e.kind === 'notify')).toMatchObject({ status: 'failed', detail: expect.stringContaining('timed out after 1 s') });
    const pid = Number(await readFile(started, 'utf8'));
    await expect.poll(() => isAlive(pid), { timeout: 10_000, interval: 50 }).toBe(false);
  });
});
