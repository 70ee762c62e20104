import { BASELINE_FILE, baselineGrowth, parseBaseline, serializeBaseline, type Baseline } from '../baseline/baseline.js';
import type { Diagnostic } from '../diagnostic.js';
import { jsonPositions } from '../json/json-positions.js';
import { defineRule, report, type Rule, type RuleExamples } from './rule.js';

export const rule: Rule = defineRule({ id: 'baseline-grown', summary: 'The baseline accepts a finding it did not accept at the commit compared with.' });

/**
 * One finding per baseline entry added (or counted more often) since `since`, at the entry's
 * line in the newer file: a baseline may shrink silently, never grow unreviewed.
 */
export function baselineGrew(before: Baseline | undefined, after: Baseline, afterText: string, since: string): Diagnostic[] {
  const grown = baselineGrowth(before, after);
  // Positions are worked out only when something grew: most pushes and checks find nothing.
  if (grown.length === 0) return [];
  const positionOf = jsonPositions(afterText);
  return grown.map(({ entry, index, before: was }) =>
    report(rule, {
      message: `The baseline accepts ${entry.count > 1 ? `${entry.count} × ` : ''}${entry.ruleId} in ${entry.file} ("${entry.message}"), ${was === 0 ? 'not accepted' : `accepted ${was} ×`} at ${since}.`,
      file: BASELINE_FILE,
      position: positionOf(['findings', index, 'ruleId']),
      expected: `no more than ${was} such finding${was === 1 ? '' : 's'} accepted`,
      actual: `${entry.count}`,
      fix: 'Fix the finding rather than accept it; a baseline that grows needs a reviewer who accepts the change on purpose.',
    }),
  );
}

/** Where the rule reports, and where it does not: rules.test.ts compares the two baselines of each example. */
export function examples(): RuleExamples {
  const entry = (lineDigest: string, count = 1) => ({ ruleId: 'tasks-incomplete' as const, file: 'docs/specs/w/tasks.md', lineDigest, count, message: 'Task "Ship" is not ticked.' });
  const before = serializeBaseline({ schemaVersion: 1, findings: [entry('00000000000000aa')] });
  const grown = serializeBaseline({ schemaVersion: 1, findings: [entry('00000000000000aa', 2), entry('00000000000000bb')] });
  const parsed = (text: string) => {
    const result = parseBaseline(BASELINE_FILE, text);
    if (!result.ok) throw new Error(result.issues.map((i) => i.message).join('; '));
    return text;
  };

  return {
    notOk: [{ title: 'one entry counted twice now and one new entry: each reported at its line', files: {}, baselines: { before: parsed(before), after: parsed(grown) }, findings: ['.the-loop/baseline.json:5:17', '.the-loop/baseline.json:12:17'] }],
    ok: [
      { title: 'a baseline that shrank', files: {}, baselines: { before: parsed(grown), after: parsed(before) } },
      { title: 'an unchanged baseline', files: {}, baselines: { before: parsed(before), after: parsed(before) } },
    ],
  };
}
