/** Every ruleId the-loop emits. Stable: rules are added, never renamed. */
export const RULE_IDS = [
  'artifact-missing',
  'artifact-ambiguous',
  'artifact-unlocked',
  'artifact-empty',
  'artifact-unreadable',
  'front-matter-invalid',
  'section-missing',
  'section-empty',
  'tasks-incomplete',
  'boundary-unaddressed',
  'review-rounds-missing',
  'phase-mismatch',
  'phase-ahead-of-artifacts',
  'template-residue',
  'approval-missing',
  'approval-stale',
  'approval-ignored',
  'graph-state-invalid',
  'internal-error',
  'evidence-missing',
  'evidence-failing',
  'evidence-stale',
  'evidence-invalid',
  'criterion-ambiguous',
  'baseline-grown',
  'optional-task-open',
] as const;

/** A stable rule identifier. */
export type RuleId = (typeof RULE_IDS)[number];

/** `error` blocks a gate; `warning` informs. */
export type Severity = 'error' | 'warning';

/**
 * One finding, shaped like unified's vfile-message so it serialises to JSON, SARIF and
 * GitHub annotations. `line`/`column` are 1-based and absent when there is no document
 * to point into (an artifact that does not exist).
 */
export interface Diagnostic {
  readonly ruleId: RuleId;
  readonly severity: Severity;
  readonly message: string;
  readonly file: string;
  readonly line?: number;
  readonly column?: number;
  readonly node?: string;
  readonly expected?: string;
  readonly actual?: string;
  readonly fix?: string;
  readonly url: string;
  /** Accepted in `.the-loop/baseline.json`: reported, but it fails nothing. */
  readonly baselined?: true;
}

/** A position in a document, 1-based. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

/** Where the rules reference documents a rule; each finding links to its anchor. */
export function ruleUrl(ruleId: RuleId): string {
  return `docs/rules.md#${ruleId}`;
}

/** Fields a rule supplies; the url is derived from the ruleId. */
export interface DiagnosticInput {
  readonly ruleId: RuleId;
  readonly message: string;
  readonly file: string;
  readonly severity?: Severity;
  readonly position?: Position | undefined;
  readonly node?: string | undefined;
  readonly expected?: string | undefined;
  readonly actual?: string | undefined;
  readonly fix?: string | undefined;
}

/** Build a diagnostic, dropping absent optional fields so JSON output stays tidy. */
export function diagnostic(input: DiagnosticInput): Diagnostic {
  return {
    ruleId: input.ruleId,
    severity: input.severity ?? 'error',
    message: input.message,
    file: input.file,
    ...(input.position ? { line: input.position.line, column: input.position.column } : {}),
    ...(input.node !== undefined ? { node: input.node } : {}),
    ...(input.expected !== undefined ? { expected: input.expected } : {}),
    ...(input.actual !== undefined ? { actual: input.actual } : {}),
    ...(input.fix !== undefined ? { fix: input.fix } : {}),
    url: ruleUrl(input.ruleId),
  };
}

/** Order diagnostics by file, line, column and rule so output never depends on read order. */
export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return (
    compareText(a.file, b.file) ||
    (a.line ?? 0) - (b.line ?? 0) ||
    (a.column ?? 0) - (b.column ?? 0) ||
    compareText(a.ruleId, b.ruleId) ||
    compareText(a.message, b.message)
  );
}

// Built on first use: creating a collator loads locale data (about 10 ms), which ids written in
// lower case, digits and hyphens never need.
let naturalOrder: Intl.Collator | undefined;
const PLAIN_ID = /^[a-z0-9-]*$/;

/** Work-item order for people: `issue-3` before `issue-11`, the same on every machine. */
export function compareIds(a: string, b: string): number {
  if (PLAIN_ID.test(a) && PLAIN_ID.test(b)) return comparePlainIds(a, b) || compareText(a, b);
  naturalOrder ??= new Intl.Collator('en', { numeric: true });
  return naturalOrder.compare(a, b) || compareText(a, b);
}

// The collator's numeric order on ids of lower-case letters, digits and hyphens, where it agrees
// with code units but for numbers: a run of digits is compared by its value, leading zeros aside.
function comparePlainIds(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (isDigit(a, i) && isDigit(b, j)) {
      let endA = i;
      let endB = j;
      while (isDigit(a, endA)) endA += 1;
      while (isDigit(b, endB)) endB += 1;
      const numberA = a.slice(i, endA).replace(/^0+/, '');
      const numberB = b.slice(j, endB).replace(/^0+/, '');
      const order = numberA.length - numberB.length || compareText(numberA, numberB);
      if (order !== 0) return order;
      i = endA;
      j = endB;
    } else {
      const order = compareText(a[i] as string, b[j] as string);
      if (order !== 0) return order;
      i += 1;
      j += 1;
    }
  }
  return (a.length - i) - (b.length - j);
}

function isDigit(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  return code >= 48 && code <= 57;
}

/** Code-unit comparison: stable across locales, unlike localeCompare. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `file:line:col` as people and editors read it. */
export function formatLocation(d: Pick<Diagnostic, 'file' | 'line' | 'column'>): string {
  return d.line === undefined ? d.file : `${d.file}:${d.line}:${d.column ?? 1}`;
}
