import * as v from 'valibot';

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

const text = v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'));

const count = v.pipe(
  v.number('must be a whole number ≥ 0'),
  v.integer('must be a whole number ≥ 0'),
  v.minValue(0, 'must be a whole number ≥ 0'),
);

const flag = v.boolean('must be true or false (unquoted)');

const command = v.pipe(
  text,
  v.check((value) => !/\s/.test(value), 'holds whitespace: a phrase, not an executable — put the program in `command` and each argument in `args`'),
);

const arg = v.pipe(
  v.string('must be a string'),
  v.check(
    (value) => unknownPlaceholders(value).length === 0,
    (issue) => `unknown placeholder ${unknownPlaceholders(String(issue.input)).map((name) => `{${name}}`).join(', ')} (known: ${PLACEHOLDERS.map((name) => `{${name}}`).join(' ')})`,
  ),
);

const relativeDir = v.pipe(
  text,
  v.check((dir) => !dir.startsWith('/') && !/^[A-Za-z]:/.test(dir), 'must be relative to the project root'),
);

const timeoutSeconds = v.pipe(
  v.number('must be a number of seconds'),
  v.finite('must be a finite number of seconds'),
  v.gtValue(0, 'must be greater than 0'),
);

/** One `reviews.critics[]` entry. Defaults are applied by parseReviewsConfig. */
export const CriticEntrySchema = v.pipe(
  v.strictObject({
    name: text,
    harness: v.optional(text),
    model: v.optional(text),
    command: v.optional(command),
    args: v.optional(v.array(arg, 'must be a list of strings')),
    env: v.optional(v.record(v.string(), v.string('must be a string (quote the value)'), 'must be a mapping of names to strings')),
    cwd: v.optional(relativeDir),
    outputFormat: v.optional(v.picklist(['text', 'json'], 'must be text or json')),
    timeoutSeconds: v.optional(timeoutSeconds),
    enabled: v.optional(flag),
  }),
  v.check((entry) => entry.harness !== undefined || entry.command !== undefined, 'needs a harness the-loop has an adapter for, or an explicit command'),
  v.check(
    (entry) => entry.command === undefined || (entry.args ?? []).some((value) => placeholdersIn(value).some((name) => name === 'prompt' || name === 'promptFile')),
    'a command critic must pass {prompt} or {promptFile} in args — a critic handed nothing would review nothing',
  ),
  v.check((entry) => entry.command !== undefined || entry.args === undefined, 'args apply to an explicit command; a built-in harness derives its argv from its adapter'),
);

/** `reviews` without its critics, which are validated one entry at a time. */
export const ReviewSettingsSchema = v.strictObject({
  selfReviewCount: v.optional(count),
  criticReviewCount: v.optional(count),
  stopOnNoNewFindings: v.optional(flag),
  escalateOnRepeatFinding: v.optional(flag),
  sameModelCritic: v.optional(v.picklist(['refuse', 'warn'], 'must be refuse or warn')),
  critics: v.optional(v.unknown()),
});

/** `reviews` as a whole, for the published JSON Schema. */
export const ReviewsSchema = v.strictObject({
  ...ReviewSettingsSchema.entries,
  critics: v.optional(v.array(CriticEntrySchema)),
});

export type CriticEntryInput = v.InferOutput<typeof CriticEntrySchema>;
