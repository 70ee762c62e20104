import type { Diagnostic, NodeResult, WorkItemResult } from '@the-loop/core';

/** The node the walk stopped at, or undefined when every node passes. */
export function currentNodeOf(result: WorkItemResult): NodeResult | undefined {
  return result.nodes.find((node) => node.status === 'current');
}

/** Whether the work item is parked on a human (an approval, an open decision). */
export function waitsOnHuman(result: WorkItemResult): boolean {
  return currentNodeOf(result)?.outcome === 'wait';
}

/**
 * What an agent can fix now: the errors of every node whose gate blocks, less those the
 * baseline accepts. The same set `check --fail-on block` fails on, so a hook and the pre-push
 * gate never disagree.
 */
export function blockingFindings(result: WorkItemResult): Diagnostic[] {
  return result.nodes.filter((node) => node.outcome === 'block').flatMap((node) => node.findings.filter((d) => d.severity === 'error' && d.baselined !== true));
}

/** What fails a check: any unmet gate (`unmet`), or only what an agent can fix (`block`). */
export type FailOn = 'unmet' | 'block';

/** Whether a result fails under the chosen `--fail-on`. */
export function failsCheck(result: WorkItemResult, failOn: FailOn): boolean {
  return failOn === 'unmet' ? !result.ok : blockingFindings(result).length > 0;
}
