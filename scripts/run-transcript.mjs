// Produces the worked transcript in docs/run.md by running the built `the-loop run` against the
// harness stand-ins: a small work item goes from its first node to a human gate, with one
// re-dispatch on the way. `node scripts/run-transcript.mjs` rewrites the block between the
// transcript markers; scripts/run-transcript.test.ts keeps the committed block current.
import { spawn } from 'node:child_process';
import { mkdtemp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const DOC = `${root}docs/run.md`;
const START = '<!-- transcript:start -->';
const END = '<!-- transcript:end -->';
const DIR = 'docs/specs/issue-7';

const CONFIG = `workflow:
  graph:
    start: requirements
    nodes:
      - {id: requirements, phase: requirements-definition, actor: agent, produces: requirements.md, maxAttempts: 3, gate: [{locked: true}]}
      - {id: tasks, phase: tasks-breakdown, actor: agent, produces: tasks.md, session: inherit, gate: [{tasksComplete: true}]}
      - {id: approval, phase: implementation, actor: human, produces: tasks.md, gate: [{approved: tasks.md}]}
    edges:
      - {from: requirements, to: tasks, on: pass}
      - {from: tasks, to: approval, on: pass}
`;

// What the stand-in agent does in each harness run: a draft first, then the approved file, then the tasks.
const SCRIPT = [
  { write: { [`${DIR}/requirements.md`]: '---\nstatus: draft\n---\n# Requirements\n\nGreet the user by name.\n' } },
  { write: { [`${DIR}/requirements.md`]: '---\nstatus: approved\n---\n# Requirements\n\nGreet the user by name.\n' } },
  { write: { [`${DIR}/tasks.md`]: '# Tasks\n\n- [x] Write the greeting\n- [x] Test the greeting\n' } },
];

/** Run the scenario; the transcript as markdown: the command, its events, its result and the re-dispatched prompt. */
export async function transcript() {
  const dir = await mkdtemp(join(tmpdir(), 'the-loop-transcript-'));
  await mkdir(join(dir, '.the-loop'), { recursive: true });
  await mkdir(join(dir, DIR), { recursive: true });
  await writeFile(join(dir, '.the-loop/harness-config.yaml'), CONFIG);
  await writeFile(join(dir, DIR, 'execution-log.md'), '---\nphase: requirements-definition\n---\n# Execution log\n');
  const script = join(dir, '.agent-script.json');
  const record = join(dir, '.agent-record.jsonl');
  await writeFile(script, JSON.stringify(SCRIPT));
  const env = {
    PATH: [`${root}test-fixtures/harness-standins/bin`, dirname(process.execPath)].join(delimiter),
    STANDIN_SCRIPT: script,
    STANDIN_RECORD: record,
  };
  const { stdout, stderr, code } = await run([`${root}packages/cli/bin/the-loop.cjs`, 'run', 'issue-7', '--request-id', 'docs-example'], dir, env);
  const prompts = (await readFile(record, 'utf8')).trim().split('\n').map((line) => JSON.parse(line));
  return [
    '```console',
    '$ the-loop run issue-7 --request-id docs-example',
    '```',
    '',
    `Exit code ${code}. stderr, one event per line:`,
    '',
    '```json',
    stderr.trimEnd(),
    '```',
    '',
    'stdout:',
    '',
    '```json',
    stdout.trimEnd(),
    '```',
    '',
    `The prompt of the second harness run (\`claude ${prompts[1].argv.join(' ')}\`, on stdin):`,
    '',
    '```text',
    prompts[1].prompt.trimEnd(),
    '```',
  ].join('\n');
}

function run(argv, cwd, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ stdout, stderr, code }));
  });
}

/** The doc's transcript block, as committed. */
export function committedTranscript(doc) {
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/run.md has no ${START} … ${END} block`);
  return doc.slice(start + START.length, end).trim();
}

/**
 * A transcript with what differs from run to run — times, durations, process ids — replaced, so
 * two runs of the same scenario compare equal.
 */
export function stable(text) {
  return text
    .replace(/"(at|enteredAt|exitedAt)":\s*"[^"]+"/g, '"$1":"<time>"')
    .replace(/"durationSeconds":\s*[\d.]+/g, '"durationSeconds":<s>')
    .replace(/"pid":\s*\d+/g, '"pid":<pid>');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const doc = await readFile(DOC, 'utf8');
  const block = await transcript();
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  await writeFile(DOC, `${doc.slice(0, start + START.length)}\n\n${block}\n\n${doc.slice(end)}`);
  process.stdout.write('wrote the transcript in docs/run.md\n');
}
