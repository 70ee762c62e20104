import * as v from 'valibot';
import { closest } from '../yaml/schema-issues.js';
import type { ReviewOutcome } from '../execution-log/review-cycles.js';
import { builtOnFirstUse } from '../built-on-first-use.js';

/** The closed set of placeholders a critic's `args` may use. */
export const PLACEHOLDERS = ['prompt', 'promptFile', 'model', 'workItem', 'specDir', 'cwd'] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];

// A placeholder is a brace-wrapped identifier; other braces (a JSON snippet) are literal text.
const PLACEHOLDER_PATTERN = /\{([A-Za-z_][A-Za-z0-9_-]*)\}/g;

/** Placeholder names an argument mentions, known or not, in order. */
export function placeholdersIn(arg: string): string[] {
  return [...arg.matchAll(PLACEHOLDER_PATTERN)].map((match) => match[1] as string);
}

/** Substitute every placeholder of one argument in a single pass: values are never re-scanned. */
export function substitutePlaceholders(arg: string, values: Readonly<Record<Placeholder, string>>): string {
  return arg.replace(PLACEHOLDER_PATTERN, (whole, name: string) => ((PLACEHOLDERS as readonly string[]).includes(name) ? values[name as Placeholder] : whole));
}

function unknownPlaceholders(arg: string): string[] {
  return placeholdersIn(arg).filter((name) => !(PLACEHOLDERS as readonly string[]).includes(name));
}

// Built on first use: most runs validate none of these (see builtOnFirstUse).
const schemas = builtOnFirstUse(() => {
  const text = v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'));

  const count = v.pipe(
    v.number('must be a whole number ≥ 0'),
    v.integer('must be a whole number ≥ 0'),
    v.minValue(0, 'must be a whole number ≥ 0'),
  );

  const flag = v.boolean('must be true or false (unquoted)');

  const command = v.pipe(
    text,
    v.regex(/^\S+$/, 'holds whitespace: a phrase, not an executable — put the program in `command` and each argument in `args`'),
  );

  const arg = v.pipe(
    v.string('must be a string'),
    v.check(
      (value) => unknownPlaceholders(value).length === 0,
      (issue) =>
        `unknown placeholder ${unknownPlaceholders(String(issue.input))
          .map((name) => {
            const meant = closest(name, PLACEHOLDERS);
            return `{${name}}${meant === undefined ? '' : ` (did you mean {${meant}}?)`}`;
          })
          .join(', ')} — known: ${PLACEHOLDERS.map((name) => `{${name}}`).join(' ')}`,
    ),
  );

  const envMap = v.pipe(
    v.record(v.string(), v.string('must be a string (quote the value)'), 'must be a mapping of names to strings'),
    v.check(
      (env) => !Object.keys(env).some((name) => SECRET_NAME.test(name)),
      (issue) =>
        `${Object.keys(issue.input as Record<string, string>).filter((name) => SECRET_NAME.test(name)).join(', ')} looks like a secret; this file is committed — keep it in your environment, which the critic inherits`,
    ),
  );

  const relativeDir = v.pipe(
    text,
    v.check((dir) => !dir.startsWith('/') && !/^[A-Za-z]:/.test(dir), 'must be relative to the project root'),
    // A critic runs where it is told; the configuration may not send it out of the repository.
    v.check((dir) => !dir.split(/[\\/]/).includes('..'), 'must stay inside the repository (no "..")'),
  );

  const timeoutSeconds = v.pipe(
    v.number('must be a number of seconds'),
    v.finite('must be a finite number of seconds'),
    v.gtValue(0, 'must be greater than 0'),
  );

  const CriticEntrySchema = v.pipe(
    v.strictObject({
      name: describe(text, 'Unique name; `the-loop critic run <name>` runs this critic.'),
      harness: v.optional(describe(text, 'A harness with a built-in adapter (claude, cursor): its one-shot argv is used when no command is set.')),
      model: v.optional(describe(text, "Model passed with the harness's model flag, and {model} in args. Unset means the harness default.")),
      command: v.optional(describe(command, 'The executable (argv[0]), never a shell line. Wins over harness.')),
      args: v.optional(
        describe(
          v.array(arg, 'must be a list of strings'),
          'Argument list of command. Placeholders {prompt} {promptFile} {model} {workItem} {specDir} {cwd} are substituted inside each element; one of {prompt} or {promptFile} is required.',
        ),
      ),
      env: v.optional(
        describe(
          envMap,
          'Variables laid over the inherited environment. The file is committed: never put secrets here.',
        ),
      ),
      cwd: v.optional(describe(relativeDir, 'Working directory, relative to the project root (default: the root).')),
      outputFormat: v.optional(describe(v.picklist(['text', 'json'], 'must be text or json'), 'json: the review is read from the result object; text: stdout is the review. Built-in harnesses default to json, commands to text.')),
      timeoutSeconds: v.optional(describe(timeoutSeconds, 'Seconds before the critic and its whole process group are killed (default 900).')),
      enabled: v.optional(describe(flag, 'false keeps the entry but refuses to run it (default true).')),
    }),
    v.check((entry) => entry.harness !== undefined || entry.command !== undefined, 'needs a harness the-loop has an adapter for, or an explicit command'),
    v.check(
      (entry) => entry.command === undefined || (entry.args ?? []).some((value) => placeholdersIn(value).some((name) => name === 'prompt' || name === 'promptFile')),
      'a command critic must pass {prompt} or {promptFile} in args — a critic handed nothing would review nothing',
    ),
    v.check((entry) => entry.command !== undefined || entry.args === undefined, 'args apply to an explicit command; a built-in harness derives its argv from its adapter'),
  );

  const outcomeWords = v.optional(v.array(v.pipe(text, v.trim(), v.toLowerCase()), 'must be a list of words'));

  const ReviewSettingsSchema = v.strictObject({
    selfReviewCount: v.optional(describe(count, 'Most self-review rounds before critic rounds (a cap, not a quota; default 3).')),
    criticReviewCount: v.optional(describe(count, 'Most critic rounds before escalating to a human (a cap, not a quota; default 3).')),
    stopOnNoNewFindings: v.optional(describe(flag, 'Stop early when a round yields no new actionable finding (default true).')),
    escalateOnRepeatFinding: v.optional(describe(flag, 'Escalate when two consecutive rounds surface the same finding (default true).')),
    sameModelCritic: v.optional(
      describe(v.picklist(['refuse', 'warn'], 'must be refuse or warn'), "A critic with the work item's author harness and model: refuse the round (default) or warn."),
    ),
    cyclesSection: v.optional(
      describe(
        v.union([text, v.pipe(v.array(text, 'must be a heading or a list of headings'), v.minLength(1, 'list at least one heading'))], 'must be a heading or a list of headings'),
        'The heading (or headings) the execution log\'s review table sits under, matched as part of the heading without case (default "Review cycles").',
      ),
    ),
    outcomes: v.optional(
      describe(
        v.strictObject({ findings: outcomeWords, zero: outcomeWords, escalated: outcomeWords, unavailable: outcomeWords } satisfies Record<ReviewOutcome, unknown>),
        'Words the review table\'s outcome column uses, by outcome; a list replaces the built-in words of that outcome (docs/rules.md#review-rounds-missing).',
      ),
    ),
    critics: v.optional(v.unknown()),
  });

  const ReviewsSchema = v.strictObject({
    ...ReviewSettingsSchema.entries,
    critics: v.optional(describe(v.array(CriticEntrySchema, 'must be a list of critic entries'), 'Critics: executable configuration, reviewed like code. Nothing runs unless named in `the-loop critic run`.')),
  });
  return { CriticEntrySchema, ReviewSettingsSchema, ReviewsSchema };
});

/** One `reviews.critics[]` entry. Defaults are applied by parseReviewsConfig. */
export const CriticEntrySchema = builtOnFirstUse(() => schemas.CriticEntrySchema);

/** `reviews` without its critics, which are validated one entry at a time. */
export const ReviewSettingsSchema = builtOnFirstUse(() => schemas.ReviewSettingsSchema);

/** `reviews` as a whole, for the published JSON Schema. */
export const ReviewsSchema = builtOnFirstUse(() => schemas.ReviewsSchema, { expects: 'Object' });

const describe = <T extends v.GenericSchema>(schema: T, text: string) => v.pipe(schema, v.description(text));

// Names that hold credentials by convention. The file is committed, so such a value belongs
// in the operator's environment, which the critic inherits anyway.
const SECRET_NAME = /(^|_)(TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?)$/i;

export type CriticEntryInput = v.InferOutput<typeof CriticEntrySchema>;
