import type { Diagnostic } from '../diagnostic.js';
import type { GraphNode } from '../graph/types.js';
import type { PhaseClaim } from '../gate/claim.js';
import { claimOverUnreadyArtifacts } from './phase-ahead-of-artifacts.js';
import { defineRule, report, type Rule, type RuleExamples } from './rule.js';

export const rule: Rule = defineRule({ id: 'phase-mismatch', summary: "The execution log's phase disagrees with where the artifacts put the work item." });

/**
 * The log's `phase:` claims a node other than the one the artifacts put the work item at.
 * Behind is a warning, on the node the work is at; ahead is an error on the claimed node — or,
 * when an upstream artifact is not ready, phase-ahead-of-artifacts in its place.
 */
export function claimDisagrees(
  line: readonly GraphNode[],
  claim: PhaseClaim,
  current: number,
  findingsOf: (node: GraphNode) => readonly Diagnostic[],
  logPath: string,
): { node: string; finding: Diagnostic } {
  const derived = line[current]?.id ?? 'done';
  if (claim.index < current) {
    const at = line[Math.min(current, line.length - 1)]!;
    return {
      node: at.id,
      finding: report(rule, {
        severity: 'warning',
        message: `The execution log says phase "${claim.phase}", but the artifacts put this work item at "${derived}".`,
        file: logPath,
        position: claim.position,
        expected: `phase: ${at.phase}`,
        actual: `phase: ${claim.phase}`,
        fix: 'Update the log\'s `phase:` to the node the work item is really at.',
      }),
    };
  }
  const claimed = line[claim.index]!.id;
  const ahead = claimOverUnreadyArtifacts(line, claim, current, findingsOf, logPath);
  if (ahead) return { node: claimed, finding: ahead };
  return {
    node: claimed,
    finding: report(rule, {
      message: `The execution log claims phase "${claim.phase}", but the gate of "${derived}" is not met yet.`,
      file: logPath,
      position: claim.position,
      expected: `phase: ${line[current]?.phase ?? 'complete'}`,
      actual: `phase: ${claim.phase}`,
      fix: `Meet the gate of "${derived}" (see its findings) before moving the log's phase on.`,
    }),
  };
}

/**
 * Graph state records a current node other than the one the artifacts put the work item at.
 * Behind (the artifacts moved on through passing gates) is a warning that `graph advance` or the
 * next Stop hook resolves; ahead of the artifacts, or off their main line, is an error.
 */
export function recordedNodeDisagrees(workItem: string, stateFile: string, recorded: string | null, derived: string | null, behind: boolean): Diagnostic {
  const at = `"${recorded ?? 'done'}"`;
  const reach = `"${derived ?? 'done'}"`;
  if (behind) {
    return report(rule, {
      severity: 'warning',
      message: `Graph state records ${at} as the current node; the artifacts have moved on through passing gates to ${reach}.`,
      file: stateFile,
      position: { line: 1, column: 1 },
      expected: derived ?? 'done',
      actual: recorded ?? 'done',
      fix: `Run \`the-loop graph advance ${workItem}\` (the next Stop hook does it too) to move the recorded pointer along the passing edges.`,
    });
  }
  return report(rule, {
    message: `Graph state records ${at} as the current node, but the artifacts put this work item at ${reach}.`,
    file: stateFile,
    position: { line: 1, column: 1 },
    expected: derived ?? 'done',
    actual: recorded ?? 'done',
    fix: `Meet the gate of ${reach} (see its findings), or move the pointer back with \`the-loop graph force ${workItem} --to ${derived ?? '<node>'} --reason <why>\`.`,
  });
}

/** Where the rule reports, and where it does not, on small work items: rules.test.ts runs them. */
export function examples(): RuleExamples {
  const GRAPH = `start: plan
nodes:
  - {id: plan, phase: planning, actor: agent, produces: plan.md, gate: [{sections: [Steps]}]}
  - {id: build, phase: building, actor: agent, produces: execution-log.md}
edges:
  - {from: plan, to: build, on: pass}
`;
  const PLAN = '# Plan\n\n## Steps\n\n1. Build it.\n';
  const EMPTY_PLAN = '# Plan\n\n## Steps\n\nTBD\n';
  const log = (phase: string) => `---\nphase: ${phase}\n---\n# Log\n`;
  const state = (currentNode: string) =>
    `{"schemaVersion": 1, "workItem": "w", "currentNode": "${currentNode}", "nodes": {}, "parked": null, "escalated": null, "approvals": [], "decisions": [], "forced": [], "selectedOptIns": []}\n`;

  return {
    notOk: [
      { title: 'the log claims building while the plan gate is unmet (an error)', graph: GRAPH, files: { 'plan.md': EMPTY_PLAN, 'execution-log.md': log('building') }, findings: ['execution-log.md:2:8'] },
      { title: 'the log still says planning once the plan is done (a warning)', graph: GRAPH, files: { 'plan.md': PLAN, 'execution-log.md': log('planning') }, findings: ['execution-log.md:2:8'] },
      { title: 'graph state records a node the artifacts have left (a warning)', graph: GRAPH, files: { 'plan.md': PLAN }, graphState: state('plan'), findings: ['graph-state.json:1:1'] },
      { title: 'graph state records a node ahead of the artifacts (an error)', graph: GRAPH, files: { 'plan.md': EMPTY_PLAN }, graphState: state('build'), findings: ['graph-state.json:1:1'] },
    ],
    ok: [
      { title: 'the log names the phase the work is at', graph: GRAPH, files: { 'plan.md': EMPTY_PLAN, 'execution-log.md': log('planning') } },
      { title: 'graph state records the node the artifacts reach', graph: GRAPH, files: { 'plan.md': EMPTY_PLAN }, graphState: state('plan') },
    ],
  };
}
