import { buildCompletionProof, proofToMarkdown } from '@the-loop/core';
import { UsageError } from '../errors.js';
import { formatJson } from '../format/json.js';
import { headCommit } from '../git/git.js';
import { oneOf, parseOptions, type Command } from './command.js';
import { gatherInput } from '../gate/evaluate.js';
import { resolveWorkItem } from '../workspace/read-work-item.js';
import { openRepo } from '../workspace/repo.js';

const USAGE = `Usage: the-loop proof <work-item> [--repo DIR] [--format json|markdown]

Prints the work item's completion proof (completion.v1): each acceptance criterion VERIFIED,
PARTIAL, UNVERIFIED or NOT_APPLICABLE with the checks behind it, the open findings, stale
evidence and open decisions, and a verdict. COMPLETE only when every criterion is VERIFIED by
current, passing evidence recorded by \`the-loop verify\` (or NOT_APPLICABLE with a reason),
at least one is VERIFIED, and nothing an agent can fix is open. Ticked tasks count for nothing.
  --format json         one completion.v1 document on stdout (default)
  --format markdown     the proof as a reviewer reads it in a pull request
Exit codes: 0 COMPLETE · 1 INCOMPLETE · 2 usage or configuration error`;

export const command: Command = {
  summary: "print a work item's completion proof",
  usage: USAGE,
  async run(args, env) {
    const { values, positionals } = parseOptions(args, { repo: { type: 'string' }, format: { type: 'string' } }, USAGE);
    if (positionals.length !== 1) throw new UsageError(`proof takes one work-item id\n${USAGE}`);
    const format = oneOf(values.format, ['json', 'markdown'] as const, 'json', '--format');
    const id = positionals[0] as string;
    const repo = await openRepo(env.cwd, values.repo);
    await resolveWorkItem(repo, id);
    const [input, commit] = await Promise.all([gatherInput(repo, id), headCommit(repo.root).catch(() => null)]);
    const proof = buildCompletionProof(repo.config.graph, input, { commit }, repo.config.gate);
    env.stdout.write(format === 'json' ? formatJson(proof) : proofToMarkdown(proof));
    return proof.verdict === 'COMPLETE' ? 0 : 1;
  },
};
