import * as v from 'valibot';
import { answerProblem } from './answer-problem.js';
import type { GraphNode } from '../graph/types.js';
import { parseJsonDocument } from '../json/parse-json-document.js';
import type { SourceIssue } from '../yaml/yaml-source.js';
import { builtOnFirstUse } from '../built-on-first-use.js';

/** How a review round ended, as the execution log's Review cycles table records it. */
export type RoundOutcome = 'new findings' | 'zero' | 'escalated' | 'unavailable';

// Bounds on an answer: a reviewer's output is untrusted text, and a round file is checked in.
const MAX_FINDINGS = 200;
const MAX_TEXT = 2000;
const MAX_PATH = 500;

/** The JSON Schema a reviewer answers with. */
export const REVIEW_ANSWER_SCHEMA: Readonly<Record<string, unknown>> = {
  type: 'object',
  properties: {
    findings: {
      type: 'array',
      maxItems: MAX_FINDINGS,
      items: {
        type: 'object',
        properties: {
          file: { type: 'string', description: 'the file the finding is about, relative to the repository root' },
          line: { type: 'integer', minimum: 1, description: 'the line, when the finding is about one' },
          summary: { type: 'string', description: 'what is wrong and why it matters, in one or two sentences' },
          repeats: { type: 'string', description: 'the id of a finding of the previous round that still applies' },
        },
        required: ['file', 'summary'],
        additionalProperties: false,
      },
    },
  },
  required: ['findings'],
  additionalProperties: false,
};

const text = (max: number) => v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(max, `must be at most ${max} characters`));

// Built on first use: most runs validate none of these (see builtOnFirstUse).
const schemas = builtOnFirstUse(() => {
  const AnswerSchema = v.strictObject({
    findings: v.pipe(
      v.array(
        v.strictObject({
          file: text(MAX_PATH),
          line: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
          summary: text(MAX_TEXT),
          repeats: v.optional(text(64)),
        }),
      ),
      v.maxLength(MAX_FINDINGS, `must hold at most ${MAX_FINDINGS} findings`),
    ),
  });

  const FindingSchema = v.strictObject({
    /** `R<cycle>.<n>`: assigned by the-loop, so the next round can name it. */
    id: v.pipe(v.string(), v.regex(/^R\d+\.\d+$/)),
    file: text(MAX_PATH),
    line: v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1))),
    summary: text(MAX_TEXT),
    /** The id of the previous round's finding this one repeats, or null for a new finding. */
    repeats: v.nullable(v.string()),
  });

  const RoundRecordSchema = v.strictObject({
    schemaVersion: v.literal(1),
    workItem: v.string(),
    node: v.string(),
    cycle: v.pipe(v.number(), v.integer(), v.minValue(1)),
    type: v.string(),
    /** `[<harness>/<model>]`: whose review this is. */
    reviewer: v.string(),
    /** The configured critic that ran the round, or null for a round on the run's own harness. */
    critic: v.nullable(v.string()),
    outcome: v.picklist(['new findings', 'zero', 'escalated', 'unavailable']),
    at: v.pipe(v.string(), v.isoTimestamp()),
    findings: v.array(FindingSchema),
    /** Why an unavailable round could not run or could not be read. */
    error: v.nullable(v.string()),
  });
  return { AnswerSchema, FindingSchema, RoundRecordSchema };
});

const AnswerSchema = builtOnFirstUse(() => schemas.AnswerSchema);

/** One review round as `reviews/cycle-<n>.json` records it, beside the work item's artifacts. */
export const RoundRecordSchema = builtOnFirstUse(() => schemas.RoundRecordSchema);

export type RoundFinding = v.InferOutput<(typeof schemas)['FindingSchema']>;

export type RoundRecord = v.InferOutput<typeof RoundRecordSchema>;

/** A reviewer's answer as read: its findings with ids, and the round's outcome; or why it is no answer. */
export type ReviewReading = { readonly ok: true; readonly findings: readonly RoundFinding[]; readonly outcome: RoundOutcome } | { readonly ok: false; readonly reason: string };

/**
 * Read a reviewer's structured answer for round `cycle`. A finding that `repeats` a finding of
 * the previous round names its id; one naming an id that round did not report makes the answer
 * unreadable, like any answer outside the schema — a round that cannot be read never counts.
 * Outcome: a repeated finding escalates; otherwise any finding is new; none is zero.
 */
export function readReviewAnswer(answer: unknown, cycle: number, previous: readonly RoundFinding[]): ReviewReading {
  if (answer === undefined) return { ok: false, reason: 'the review was not a JSON object' };
  const parsed = v.safeParse(AnswerSchema, answer);
  if (!parsed.success) {
    return { ok: false, reason: `the review is not {findings: [{file, line?, summary, repeats?}]}: ${answerProblem(AnswerSchema, parsed.issues)}` };
  }
  const known = new Set(previous.map((finding) => finding.id));
  const stray = parsed.output.findings.find((finding) => finding.repeats !== undefined && !known.has(finding.repeats));
  if (stray) {
    const offered = known.size > 0 ? ` (it reported ${[...known].join(', ')})` : ' (there was none to repeat)';
    return { ok: false, reason: `a finding repeats "${stray.repeats}", which the previous round did not report${offered}` };
  }
  const findings = parsed.output.findings.map((finding, index) => ({
    id: `R${cycle}.${index + 1}`,
    file: finding.file,
    line: finding.line ?? null,
    summary: finding.summary,
    repeats: finding.repeats ?? null,
  }));
  const outcome: RoundOutcome = findings.some((f) => f.repeats !== null) ? 'escalated' : findings.length > 0 ? 'new findings' : 'zero';
  return { ok: true, findings, outcome };
}

/** A finding as people and the author read it: `R3.1 file:line summary`. */
export function findingText(finding: RoundFinding): string {
  return `${finding.id} ${finding.file}${finding.line !== null ? `:${finding.line}` : ''} ${finding.summary.replace(/\s+/g, ' ')}${finding.repeats ? ` (repeats ${finding.repeats})` : ''}`;
}

/** What a reviewer is told. */
export interface ReviewPromptInput {
  readonly node: GraphNode;
  readonly type: string;
  readonly workItem: string;
  readonly dir: string;
  readonly cycle: number;
  /** The previous round of this type, whose findings may be repeated by id. */
  readonly previous: RoundRecord | undefined;
}

/** The reviewer's instructions: what to review, the previous round's findings, and the JSON to answer with. */
export function reviewPrompt(input: ReviewPromptInput): string {
  const lines = [
    `Review round ${input.cycle} (${input.type} review) of work item ${input.workItem}, at node "${input.node.id}".`,
    `Read the work item's artifacts in ${input.dir} (requirements or bugfix, design, tasks, execution log) and the changes they describe in this repository, and report what is wrong: defects, gaps against the requirements, missing tests, security problems.`,
    'Report only what you would block a merge for. Do not fix anything; you are the reviewer.',
  ];
  if (input.previous && input.previous.findings.length > 0) {
    lines.push('', `The previous ${input.type} round (${input.previous.cycle}, ${input.previous.reviewer}) reported:`, ...input.previous.findings.map((f) => `- ${findingText(f)}`));
    lines.push('If one of these still applies, report it again with "repeats" set to its id. A finding you report without "repeats" is a new finding.');
  }
  lines.push(
    '',
    'Answer with exactly one JSON object and nothing else:',
    '{"findings": [{"file": "<path from the repository root>", "line": <number, optional>, "summary": "<what is wrong>", "repeats": "<id, optional>"}]}',
    'An empty list means you found nothing to block on. Prose, or any other shape, is not a review and the round will not count.',
    '',
  );
  return lines.join('\n');
}

export type RoundRecordResult = { ok: true; record: RoundRecord } | { ok: false; issues: SourceIssue[] };

/** Parse a round file; a file that is not one is an error naming its line, never an empty round. */
export function parseRoundRecord(file: string, content: string): RoundRecordResult {
  const result = parseJsonDocument(file, content, RoundRecordSchema);
  return result.ok ? { ok: true, record: result.value } : result;
}
