import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { mainLine, workItemIdProblem, type Graph, type GraphNode } from '@the-loop/core';
import { UsageError } from '../errors.js';
import { READ_LIMITS } from '../limits.js';
import { fillTemplate, TEMPLATES, TEMPLATES_DIR } from '../scaffold/templates.js';
import { createFileAtomic } from '../workspace/atomic-write.js';
import { readRepositoryFile } from '../workspace/read-file.js';
import { openRepo, type Repo } from '../workspace/repo.js';
import { parseOptions, type Command } from './command.js';

const USAGE = `Usage: the-loop new <work-item> [--bugfix] [--repo DIR]

Starts a work item: creates its folder under the spec root with the first artifact the lifecycle
graph asks for, from ${TEMPLATES_DIR}/ (written by \`the-loop init\`) or the preset's built-in
template, and prints what to run next. \`the-loop check <work-item>\` then lists every placeholder
still to fill in.
  --bugfix   start from bugfix.md instead of requirements.md, where the graph allows either
Exit codes: 0 created · 2 usage error, or the work item's folder exists (nothing is touched)`;

export const command: Command = {
  summary: 'start a work item from the templates',
  usage: USAGE,
  async run(args, env) {
    const { values, positionals } = parseOptions(args, { bugfix: { type: 'boolean' }, repo: { type: 'string' } }, USAGE);
    const [id, ...more] = positionals;
    if (id === undefined || more.length > 0) throw new UsageError('new takes exactly one work-item id, such as `the-loop new issue-42`');
    const problem = workItemIdProblem(id);
    if (problem) throw new UsageError(problem);
    const repo = await openRepo(env.cwd, values.repo);
    const folder = `${repo.config.specDir}/${id}`;
    if (await stat(join(repo.specRoot, id)).catch(() => undefined)) throw new UsageError(`${folder} already exists; nothing was touched`);
    const name = firstArtifact(repo.config.graph, values.bugfix === true);
    const { text, from } = await template(repo, name);
    await mkdir(repo.specRoot, { recursive: true });
    try {
      await mkdir(join(repo.specRoot, id));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new UsageError(`${folder} already exists; nothing was touched`);
      throw error;
    }
    await createFileAtomic(join(repo.specRoot, id, name), fillTemplate(text, { id, date: env.now().toISOString().slice(0, 10) }));
    env.stdout.write(`created ${folder}/${name} (from ${from})\n`);
    env.stdout.write(`next: write it, replacing every <placeholder>; \`the-loop check ${id}\` lists what is left\n`);
    return 0;
  },
};

// The first node on the walk a person or agent writes (not optional, not opt-in, not a human's).
function firstNode(graph: Graph): GraphNode | undefined {
  return mainLine(graph).find((node) => node.alternatives.length > 0 && node.actor !== 'human' && !node.optional && !node.optIn);
}

function firstArtifact(graph: Graph, bugfix: boolean): string {
  const node = firstNode(graph);
  if (!node) throw new UsageError('the lifecycle graph has no node that writes an artifact, so there is nothing to start from');
  if (!bugfix) return node.alternatives[0]!;
  const name = node.alternatives.find((candidate) => candidate.startsWith('bugfix'));
  if (!name) throw new UsageError(`--bugfix: the first node ("${node.id}") writes ${node.alternatives.join(' or ')}; the graph offers no bugfix artifact there`);
  return name;
}

// The repository's own template, else the preset's, else a bare page naming what to write.
async function template(repo: Repo, name: string): Promise<{ text: string; from: string }> {
  const own = `${TEMPLATES_DIR}/${name}`;
  const text = await readRepositoryFile(join(repo.root, ...own.split('/')), own, { within: repo.root, maxBytes: READ_LIMITS.artifact });
  if (text !== undefined) return { text, from: own };
  const shipped = TEMPLATES[repo.config.preset][name];
  if (shipped !== undefined) return { text: shipped, from: `the ${repo.config.preset} preset's template` };
  return { text: `# ${name.replace(/\.md$/, '')}: {{id}}\n\n<what this artifact must say>\n`, from: 'a blank page: no template names it' };
}
