import { normalizeTitle } from '../artifact/find-section.js';
import type { Artifact, Table, TableRow } from '../artifact/types.js';

/** What a review round came to, in the words of the review procedure. */
export const REVIEW_OUTCOMES = ['findings', 'zero', 'escalated', 'unavailable'] as const;
export type ReviewOutcome = (typeof REVIEW_OUTCOMES)[number];

/** Outcomes of a round that ran; an unavailable round does not count. */
const RAN: ReadonlySet<ReviewOutcome> = new Set(['findings', 'zero', 'escalated']);

/** Where the execution log records review rounds and the words its Outcome column uses. */
export interface ReviewCycleSettings {
  /** Headings the table may sit under (matched without case, as part of the heading). */
  readonly sections: readonly string[];
  /** The words that mean each outcome, lower case. */
  readonly outcomes: Readonly<Record<ReviewOutcome, readonly string[]>>;
}

/** The words teams write for each outcome; `reviews.outcomes` replaces a list (docs/rules.md). */
export const DEFAULT_OUTCOME_WORDS: Readonly<Record<ReviewOutcome, readonly string[]>> = {
  findings: ['new findings', 'findings', 'changes requested', 'issues found', 'needs changes'],
  zero: ['zero', 'no new findings', 'no findings', 'converged', 'clean', 'pass', 'passed', 'lgtm', 'approved', 'ok', 'none'],
  escalated: ['escalated'],
  unavailable: ['unavailable', 'not run', 'could not run', 'skipped', 'n/a'],
};

export const DEFAULT_REVIEW_CYCLES: ReviewCycleSettings = { sections: ['Review cycles'], outcomes: DEFAULT_OUTCOME_WORDS };

/** One row of the table, read: the round's type as written and its outcome, when recognised. */
export interface ReviewRound {
  readonly type: string;
  readonly outcome: ReviewOutcome | undefined;
  /** The outcome cell as written, for a message about a word that was not recognised. */
  readonly written: string;
  readonly row: TableRow;
}

/** The review cycles of a log: its tables under the configured headings, and their rounds. */
export interface ReviewCycles {
  readonly tables: readonly Table[];
  /** A table found but with no column for the round's type or for its outcome. */
  readonly missingColumn: 'type' | 'outcome' | undefined;
  readonly rounds: readonly ReviewRound[];
}

// Column headers, most specific first: `Type` before a `Reviewer` that may hold the type too;
// an `Outcome` before a `Findings` count.
const TYPE_HEADERS = [/^(review |round )?(type|kind)$/i, /type|kind/i, /reviewer/i];
const OUTCOME_HEADERS = [/^(outcome|result|verdict|status)$/i, /outcome|result|verdict/i, /findings/i];

/** Read the review rounds an execution log records. */
export function readReviewCycles(log: Artifact, settings: ReviewCycleSettings): ReviewCycles {
  const wanted = settings.sections.map(normalizeTitle);
  const tables = log.tables.filter((t) => t.section !== undefined && wanted.some((name) => normalizeTitle(t.section as string).includes(name)));
  const rounds: ReviewRound[] = [];
  let missingColumn: 'type' | 'outcome' | undefined;
  for (const table of tables) {
    const typeColumn = columnOf(table.header, TYPE_HEADERS);
    const outcomeColumn = columnOf(table.header, OUTCOME_HEADERS);
    if (typeColumn < 0 || outcomeColumn < 0) {
      missingColumn ??= typeColumn < 0 ? 'type' : 'outcome';
      continue;
    }
    for (const row of table.rows) {
      const written = row.cells[outcomeColumn] ?? '';
      rounds.push({ type: (row.cells[typeColumn] ?? '').toLowerCase(), outcome: outcomeOf(written, settings.outcomes), written, row });
    }
  }
  return { tables, missingColumn, rounds };
}

/** Whether a round of this outcome ran (and so counts toward a gate). */
export function roundRan(outcome: ReviewOutcome | undefined): boolean {
  return outcome !== undefined && RAN.has(outcome);
}

function columnOf(header: readonly string[], patterns: readonly RegExp[]): number {
  for (const pattern of patterns) {
    const at = header.findIndex((cell) => pattern.test(cell.trim()));
    if (at >= 0) return at;
  }
  return -1;
}

/**
 * The outcome a cell names: the longest outcome word it starts with, as a whole word
 * (`unavailable: not on PATH`, `Zero (after fixes)`), or a findings count (`0`, `3 new`).
 */
export function outcomeOf(cell: string, words: Readonly<Record<ReviewOutcome, readonly string[]>>): ReviewOutcome | undefined {
  const text = cell.toLowerCase().replace(/[*_`~]/g, '').replace(/\s+/g, ' ').trim();
  const count = /^(\d+)\b/.exec(text);
  if (count) return Number(count[1]) === 0 ? 'zero' : 'findings';
  let best: { outcome: ReviewOutcome; length: number } | undefined;
  for (const outcome of REVIEW_OUTCOMES) {
    for (const word of words[outcome]) {
      const starts = text === word || (text.startsWith(word) && !/[\p{L}\p{N}]/u.test(text.charAt(word.length)));
      if (starts && word.length > (best?.length ?? 0)) best = { outcome, length: word.length };
    }
  }
  return best?.outcome;
}
