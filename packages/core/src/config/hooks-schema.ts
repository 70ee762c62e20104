import * as v from 'valibot';
import { builtOnFirstUse } from '../built-on-first-use.js';

const CAP_MESSAGE = 'must be a whole number from 1 to 100';
const DEADLINE_MESSAGE = 'must be a number of seconds greater than 0 and at most 3600';

/** `hooks:` in `.the-loop/harness-config.yaml`: how the harness hooks behave. */
export const HooksConfigSchema = builtOnFirstUse(() =>
  v.strictObject({
    /** Stop blocks allowed in a row for the same findings before the stop goes through and escalates. */
    noProgressCap: v.optional(v.pipe(v.number(CAP_MESSAGE), v.integer(CAP_MESSAGE), v.minValue(1, CAP_MESSAGE), v.maxValue(100, CAP_MESSAGE)), 3),
    /**
     * Seconds a Stop hook may spend deciding; past it the stop is held with the reason (decision
     * 070). Keep it well under the harness's own hook timeout (60 s as installed), which would let the stop through.
     */
    stopDeadlineSeconds: v.optional(v.pipe(v.number(DEADLINE_MESSAGE), v.finite(DEADLINE_MESSAGE), v.gtValue(0, DEADLINE_MESSAGE), v.maxValue(3600, DEADLINE_MESSAGE)), 30),
  }),
  { expects: 'Object' },
);

export type HooksConfig = v.InferOutput<typeof HooksConfigSchema>;
