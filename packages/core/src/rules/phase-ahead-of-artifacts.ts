import type { Diagnostic } from '../diagnostic.js';
import type { GraphNode } from '../graph/types.js';
import type { PhaseClaim } from '../gate/claim.js';
import { defineRule, report, type Rule, type RuleExamples } from './rule.js';

export const rule: Rule = defineRule({ id: 'phase-ahead-of-artifacts', summary: 'The execution log claims a later phase while an upstream artifact is missing or unlocked.' });

// What leaves an upstream artifact not ready: the skipped-step fingerprint.
const NOT_READY: Readonly<Record<string, string>> = { 'artifact-missing': 'missing', 'artifact-empty': 'empty', 'artifact-unlocked': 'unlocked' };

/**
 * A log claiming a later phase than the artifacts reach, while an artifact between the two is
 * missing, empty or unlocked; reported at the log's `phase:` in place of a phase-mismatch.
 */
export function claimOverUnreadyArtifacts(
  line: readonly GraphNode[],
  claim: PhaseClaim,
  current: number,
  findingsOf: (node: GraphNode) => readonly Diagnostic[],
  logPath: string,
): Diagnostic | undefined {
  const upstream = line
    .slice(current, claim.index)
    .flatMap(findingsOf)
    .filter((d) => d.ruleId in NOT_READY);
  if (upstream.length === 0) return undefined;
  const named = [...new Set(upstream.map((d) => `${d.file.split('/').pop()} ${NOT_READY[d.ruleId]}`))];
  return report(rule, {
    message: `The execution log claims phase "${claim.phase}" while upstream artifacts are not ready: ${named.join(', ')}.`,
    file: logPath,
    position: claim.position,
    expected: `phase: ${line[current]!.phase} (where the artifacts put the work item: "${line[current]?.id ?? 'done'}")`,
    actual: `phase: ${claim.phase}`,
    fix: 'Finish and lock the upstream artifacts first, or set the log\'s phase back to where the work really is.',
  });
}

/** Where the rule reports, and where it does not, on small work items: rules.test.ts runs them. */
export function examples(): RuleExamples {
  const GRAPH = `start: plan
nodes:
  - {id: plan, phase: planning, actor: agent, produces: plan.md, gate: [{locked: true}]}
  - {id: build, phase: building, actor: agent, produces: execution-log.md}
edges:
  - {from: plan, to: build, on: pass}
`;
  const LOG = '---\nphase: building\n---\n# Log\n';

  return {
    notOk: [{ title: 'the log claims building over a draft plan', graph: GRAPH, files: { 'plan.md': '---\nstatus: draft\n---\n# Plan\n', 'execution-log.md': LOG }, findings: ['execution-log.md:2:8'] }],
    ok: [{ title: 'the log claims building over a locked plan', graph: GRAPH, files: { 'plan.md': '---\nstatus: approved\n---\n# Plan\n', 'execution-log.md': LOG } }],
  };
}
