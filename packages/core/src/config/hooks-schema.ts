import * as v from 'valibot';

const CAP_MESSAGE = 'must be a whole number from 1 to 100';

/** `hooks:` in `.the-loop/harness-config.yaml`: how the harness hooks behave. */
export const HooksConfigSchema = v.strictObject({
  /** Stop blocks allowed in a row for the same findings before the stop goes through and escalates. */
  noProgressCap: v.optional(v.pipe(v.number(CAP_MESSAGE), v.integer(CAP_MESSAGE), v.minValue(1, CAP_MESSAGE), v.maxValue(100, CAP_MESSAGE)), 3),
});

export type HooksConfig = v.InferOutput<typeof HooksConfigSchema>;
