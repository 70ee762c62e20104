import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  EXECUTION_LOG,
  authorFromFrontMatter,
  formatLocation,
  isSameAuthor,
  parseArtifact,
  parseRoundRecord,
  type Author,
  type CriticEntry,
  type GraphNode,
  type ReviewsConfig,
  type RoundRecord,
} from '@the-loop/core';
import { formatJson } from '../format/json.js';
import { writeFileAtomic } from '../workspace/atomic-write.js';
import { READ_LIMITS } from '../limits.js';
import { readIfPresent } from '../workspace/read-file.js';
import type { Repo } from '../workspace/repo.js';
import { REVIEW_CYCLES } from './run-log.js';

/** Where a work item's review rounds are kept, beside its artifacts (checked in: the rounds are evidence). */
export const ROUNDS_DIR = 'reviews';
const ROUND_FILE = /^cycle-(\d+)\.json$/;
const MAX_ROUND_BYTES = 1024 * 1024;

/** The review type a node's gate asks rounds of (`reviewRounds: {type}`), or undefined for a node that is no review. */
export function reviewTypeOf(node: GraphNode): string | undefined {
  for (const predicate of node.gate) if ('reviewRounds' in predicate) return predicate.reviewRounds.type;
  return undefined;
}

/** The round file's path relative to the work item's folder: the Review cycles table's link. */
export function roundLink(cycle: number): string {
  return `${ROUNDS_DIR}/cycle-${cycle}.json`;
}

/**
 * Every round recorded for the work item, by cycle. A round file that cannot be read or is not
 * a round of this work item throws, naming the file and line: the next round is compared with
 * the last one, and a guess there would decide an escalation.
 */
export async function roundHistory(repo: Repo, id: string): Promise<RoundRecord[]> {
  const dir = join(repo.specRoot, id, ROUNDS_DIR);
  const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw new Error(`cannot list ${repo.config.specDir}/${id}/${ROUNDS_DIR}: ${error.message}`);
  });
  const rounds: RoundRecord[] = [];
  for (const name of names.filter((n) => ROUND_FILE.test(n))) {
    const file = `${repo.config.specDir}/${id}/${ROUNDS_DIR}/${name}`;
    const text = await readIfPresent(join(dir, name), { within: repo.root, maxBytes: MAX_ROUND_BYTES, noLinks: true }).catch((error: Error) => {
      throw new Error(`${file} cannot be read: ${error.message}`);
    });
    if (text === undefined) continue;
    const parsed = parseRoundRecord(file, text);
    if (!parsed.ok) throw new Error(parsed.issues.map((i) => `${formatLocation(i)}  ${i.message}`).join('; '));
    if (parsed.record.workItem !== id || `cycle-${parsed.record.cycle}.json` !== name) throw new Error(`${file} records cycle ${parsed.record.cycle} of ${parsed.record.workItem}, not this file's round of ${id}`);
    rounds.push(parsed.record);
  }
  return rounds.sort((a, b) => a.cycle - b.cycle);
}

/** Write a round's file. */
export async function writeRound(repo: Repo, record: RoundRecord): Promise<void> {
  const dir = join(repo.specRoot, record.workItem, ROUNDS_DIR);
  await mkdir(dir, { recursive: true });
  await writeFileAtomic(join(dir, `cycle-${record.cycle}.json`), formatJson(record));
}

/** The highest cycle number the execution log's Review cycles table already uses (rows written by hand included). */
export async function loggedCycles(repo: Repo, id: string): Promise<number> {
  const text = (await readIfPresent(join(repo.specRoot, id, EXECUTION_LOG), { within: repo.root, maxBytes: READ_LIMITS.artifact })) ?? '';
  const table = parseArtifact(EXECUTION_LOG, text).tables.find((t) => (t.section ?? '').toLowerCase().includes(REVIEW_CYCLES.toLowerCase()));
  const numbers = table?.rows.map((row) => Number.parseInt(row.cells[0] ?? '', 10)).filter((n) => Number.isInteger(n) && n > 0) ?? [];
  return Math.max(0, ...numbers);
}

/** Who wrote the work item, as its execution log records it. */
export async function loggedAuthor(repo: Repo, id: string): Promise<Author | undefined> {
  const text = await readIfPresent(join(repo.specRoot, id, EXECUTION_LOG), { within: repo.root, maxBytes: READ_LIMITS.artifact });
  return text === undefined ? undefined : authorFromFrontMatter(parseArtifact(EXECUTION_LOG, text).frontMatter?.data);
}

/**
 * The critics that may review, in the order a round tries them: enabled, runnable entries that
 * are not the author's own harness and model, round-robin from the one after the critic of the
 * last round, so rounds rotate through the critics.
 */
export function criticOrder(reviews: ReviewsConfig, author: Author, rounds: readonly RoundRecord[]): CriticEntry[] {
  const eligible = reviews.critics.flatMap((declared) => (declared.entry && declared.entry.enabled && !isSameAuthor(declared.entry, author) ? [declared.entry] : []));
  const last = [...rounds].reverse().find((round) => round.critic !== null)?.critic;
  const start = eligible.findIndex((entry) => entry.name === last) + 1;
  return [...eligible.slice(start), ...eligible.slice(0, start)];
}
