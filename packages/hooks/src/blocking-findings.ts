import { blockingFindings, type NodeResult, type WorkItemResult } from '@the-loop/core';

/** The node the walk stopped at, or undefined when every node passes. */
export function currentNodeOf(result: WorkItemResult): NodeResult | undefined {
  return result.nodes.find((node) => node.status === 'current');
}

/** Whether the work item is parked on a human (an approval, an open decision). */
export function waitsOnHuman(result: WorkItemResult): boolean {
  return currentNodeOf(result)?.outcome === 'wait';
}

// One set for a hook, the pre-push gate and a completion proof, so they never disagree.
export { blockingFindings };

/** What fails a check: any unmet gate (`unmet`), or only what an agent can fix (`block`). */
export type FailOn = 'unmet' | 'block';

/** Whether a result fails under the chosen `--fail-on`. */
export function failsCheck(result: WorkItemResult, failOn: FailOn): boolean {
  return failOn === 'unmet' ? !result.ok : blockingFindings(result).length > 0;
}
