import type { Artifact, Statement } from '../artifact/types.js';
import type { Position } from '../diagnostic.js';
import { CRITERION_ID } from './config.js';

/** One acceptance criterion of a work item, as requirements.md or bugfix.md states it. */
export interface Criterion {
  readonly id: string;
  readonly text: string;
  /** True when the file wrote the id (`AC1:`, `**AC1**`); false for `AC<n>` counted in order. */
  readonly explicit: boolean;
  readonly file: string;
  readonly position: Position;
}

// EARS: `WHEN/IF/WHILE/WHERE … SHALL …`, `The system shall …`, or any statement with SHALL in capitals.
const EARS_TRIGGER = /^(?:when|if|while|where)\b[\s\S]*\bshall\b/i;
const EARS_UBIQUITOUS = /^the(?:\s+[\w-]+){1,4}\s+shall\b/i;
const EARS_KEYWORD = /\bSHALL\b/;
// `AC1: …` — an id followed by a colon at the very start.
const COLON_ID = /^([A-Z][A-Z0-9.-]*)\s*:\s*/;
const ACCEPTANCE_HEADING = /^acceptance criteria\b/i;
const MAX_TEXT = 500;

/**
 * Read the acceptance criteria of a requirements (or bugfix) artifact, in document order:
 * EARS statements anywhere, statements that start with an explicit id (`AC1:`, `**AC1**`,
 * `` `FR-001` ``), and the top-level list items under an "Acceptance criteria" heading. A
 * criterion keeps an id it writes; any other is `AC<n>`, n being its place among all of them.
 */
export function readCriteria(artifact: Artifact): Criterion[] {
  const criteria: Criterion[] = [];
  for (const statement of artifact.statements) {
    const explicit = explicitId(statement);
    const text = explicit ? explicit.rest : statement.text;
    if (!explicit && !isEars(text) && !underAcceptanceHeading(statement)) continue;
    criteria.push({
      id: explicit?.id ?? `AC${criteria.length + 1}`,
      text: clip(text.replace(/\s+/g, ' ').trim()),
      explicit: explicit !== undefined,
      file: artifact.path,
      position: statement.position,
    });
  }
  return criteria;
}

/** Criteria sharing an id with an earlier one: `covers` cannot say which of them a check proves. */
export function repeatedCriteria(criteria: readonly Criterion[]): { criterion: Criterion; first: Criterion }[] {
  const seen = new Map<string, Criterion>();
  return criteria.flatMap((criterion) => {
    const first = seen.get(criterion.id);
    if (first) return [{ criterion, first }];
    seen.set(criterion.id, criterion);
    return [];
  });
}

function explicitId(statement: Statement): { id: string; rest: string } | undefined {
  if (statement.lead !== undefined) {
    const id = statement.lead.replace(/:$/, '').trim();
    if (CRITERION_ID.test(id)) return { id, rest: statement.text.slice(statement.text.indexOf(statement.lead) + statement.lead.length).replace(/^\s*[:.)\u2013\u2014-]?\s*/, '') };
  }
  const match = COLON_ID.exec(statement.text);
  if (match && CRITERION_ID.test(match[1] as string)) return { id: match[1] as string, rest: statement.text.slice(match[0].length) };
  return undefined;
}

function isEars(text: string): boolean {
  return EARS_KEYWORD.test(text) || EARS_TRIGGER.test(text) || EARS_UBIQUITOUS.test(text);
}

function underAcceptanceHeading(statement: Statement): boolean {
  return statement.listDepth === 1 && ACCEPTANCE_HEADING.test(statement.section ?? '');
}

function clip(text: string): string {
  return text.length <= MAX_TEXT ? text : `${text.slice(0, MAX_TEXT - 1)}…`;
}
