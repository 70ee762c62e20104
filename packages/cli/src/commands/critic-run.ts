import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import {
  attribution,
  authorFromFrontMatter,
  formatLocation,
  isSameAuthor,
  parseArtifact,
  workItemIdProblem,
  EXECUTION_LOG,
  type CriticDeclaration,
  type CriticEntry,
} from '@the-loop/core';
import { UsageError } from '../errors.js';
import { openRepo, type Repo } from '../workspace/repo.js';
import { loadReviews } from '../workspace/reviews.js';
import { checkOutputPath, writeOutputFile } from '../workspace/output-file.js';
import { READ_LIMITS } from '../limits.js';
import { escapes, readBytesIfPresent, readRepositoryFile } from '../workspace/read-file.js';
import { parseOptions, type CommandEnv } from './command.js';
import { runCriticRound } from '../harness/critic-round.js';
import { withScratchFile } from '../workspace/scratch.js';


export async function criticRun(args: readonly string[], env: CommandEnv, usage: string): Promise<number> {
  const { values, positionals } = parseOptions(
    args,
    {
      repo: { type: 'string' },
      prompt: { type: 'string' },
      'prompt-file': { type: 'string' },
      cwd: { type: 'string' },
      'work-item': { type: 'string' },
      'spec-dir': { type: 'string' },
      timeout: { type: 'string' },
      'output-file': { type: 'string' },
    },
    usage,
  );
  if (positionals.length !== 1) throw new UsageError(`critic run takes exactly one critic name (there is no run-all mode)\n${usage}`);
  if ((values.prompt === undefined) === (values['prompt-file'] === undefined)) {
    throw new UsageError(`critic run needs exactly one of --prompt or --prompt-file\n${usage}`);
  }
  const name = positionals[0] as string;
  if (values.prompt !== undefined && values.prompt.trim() === '') throw new UsageError('--prompt is empty: a critic handed nothing would review nothing');
  const timeoutSeconds = values.timeout === undefined ? undefined : parseTimeout(values.timeout);
  const repo = await openRepo(env.cwd, values.repo);
  const reviews = loadReviews(repo);
  const critic = pickCritic(reviews.critics, name);

  const specDir = values['spec-dir'] ?? repo.config.specDir;
  if (isAbsolute(specDir) || specDir.split(/[\\/]/).includes('..')) throw new UsageError(`--spec-dir must be a directory inside the project, relative to its root; got "${specDir}"`);
  const workItem = values['work-item'];
  if (workItem !== undefined) await checkWorkItem(repo, specDir, workItem, critic, reviews.sameModelCritic, env);
  const cwd = values.cwd === undefined ? undefined : resolve(env.cwd, values.cwd);
  if (cwd !== undefined) await requireDirectory(cwd, '--cwd');
  else await requireDirectory(critic.cwd === undefined ? repo.root : join(repo.root, critic.cwd), `the working directory of critic "${name}"`, repo.root);

  // Checked before the round: a path that will be refused must not cost a review.
  const outputFile = values['output-file'] === undefined ? undefined : await checkOutputPath(env.cwd, values['output-file'], '--output-file');
  const roundInputs = { projectRoot: repo.root, join, specDir, workItem, cwd, timeoutSeconds, env: env.env };
  const run = async (prompt: string, promptFile: string) => {
    const round = await runCriticRound(critic, { ...roundInputs, prompt, promptFile }, env.adapters);
    if (!round.ok) throw new UsageError(round.reason);
    return round.envelope;
  };
  const envelope =
    values.prompt !== undefined
      ? await withScratchFile(values.prompt, (file) => run(values.prompt as string, file))
      : await readPromptFile(resolve(env.cwd, values['prompt-file'] as string)).then(({ text, path }) => run(text, path));

  const document = `${JSON.stringify(envelope, null, 2)}\n`;
  env.stdout.write(document);
  if (!envelope.ok) env.stderr.write(`the-loop: critic "${name}" round failed: ${envelope.error ?? envelope.reason}\n`);
  if (outputFile !== undefined) {
    try {
      await writeOutputFile(outputFile, document);
    } catch (error) {
      env.stderr.write(`the-loop: cannot write --output-file ${values['output-file']}: ${(error as Error).message}\n`);
      return 1;
    }
  }
  return envelope.ok ? 0 : 1;
}

function parseTimeout(text: string): number {
  const seconds = Number(text);
  if (text.trim() === '' || !Number.isFinite(seconds) || seconds <= 0) throw new UsageError(`--timeout must be a finite number of seconds greater than 0; got "${text}"`);
  return seconds;
}

function pickCritic(critics: readonly CriticDeclaration[], name: string): CriticEntry {
  const declared = critics.find((critic) => critic.name === name);
  if (!declared) {
    const known = critics.map((critic) => critic.name).filter((n) => n !== undefined);
    throw new UsageError(`no critic named "${name}" in reviews.critics${known.length > 0 ? ` (configured: ${known.join(', ')})` : ' (none is configured)'}`);
  }
  if (!declared.entry) {
    throw new UsageError([`critic "${name}" is misconfigured:`, ...declared.problems.map((issue) => `  ${formatLocation(issue)}  ${issue.message}`)].join('\n'));
  }
  if (!declared.entry.enabled) throw new UsageError(`critic "${name}" is disabled (enabled: false)`);
  return declared.entry;
}

// Author ≠ critic: a model reviewing its own work ratifies it.
async function checkWorkItem(repo: Repo, specDir: string, id: string, critic: CriticEntry, policy: 'refuse' | 'warn', env: CommandEnv): Promise<void> {
  const problem = workItemIdProblem(id);
  if (problem) throw new UsageError(problem);
  const dir = join(repo.root, specDir, id);
  await requireDirectory(dir, `work item "${id}" (${specDir}/${id})`);
  const logPath = join(dir, EXECUTION_LOG);
  const text = await readRepositoryFile(logPath, `${specDir}/${id}/${EXECUTION_LOG}`, { within: repo.root, maxBytes: READ_LIMITS.artifact });
  if (text === undefined) return;
  const author = authorFromFrontMatter(parseArtifact(`${specDir}/${id}/${EXECUTION_LOG}`, text).frontMatter?.data);
  if (!author || !isSameAuthor(critic, author)) return;
  const message = `critic "${critic.name}" is ${attribution(critic)}, the same harness and model that wrote ${id} (${EXECUTION_LOG} author); a model reviewing its own work ratifies it`;
  if (policy === 'refuse') throw new UsageError(`${message}. Choose a different critic, or set reviews.sameModelCritic: warn.`);
  env.stderr.write(`the-loop: warning: ${message}\n`);
}

// With `root`, the directory must also really lie inside it: a symbolic link out of the repository is refused.
async function requireDirectory(path: string, what: string, root?: string): Promise<void> {
  const info = await stat(path).catch(() => undefined);
  if (!info?.isDirectory()) throw new UsageError(`${what}: ${path} is not a directory`);
  if (root !== undefined && escapes(await realpath(root), await realpath(path))) throw new UsageError(`${what}: ${path} leads out of the repository`);
}

async function readPromptFile(path: string): Promise<{ text: string; path: string }> {
  // The operator names the file, so it may lie anywhere; it is still read only if it is a regular file within the cap.
  const bytes = await readBytesIfPresent(path, { maxBytes: READ_LIMITS.prompt }).catch((error: Error) => {
    throw new UsageError(`--prompt-file ${path} cannot be read: ${error.message}`);
  });
  if (bytes === undefined) throw new UsageError(`--prompt-file ${path} does not exist`);
  if (bytes.toString('utf8').trim() === '') throw new UsageError(`--prompt-file ${path} is empty: a critic handed nothing would review nothing`);
  if (bytes.includes(0)) throw new UsageError(`--prompt-file ${path} holds NUL bytes; a prompt is text`);
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), path };
  } catch {
    throw new UsageError(`--prompt-file ${path} is not valid UTF-8`);
  }
}
