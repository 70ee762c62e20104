import type { Diagnostic } from '../diagnostic.js';
import type { WorkItemResult } from './evaluate-work-item.js';

/**
 * What an agent can fix now: the errors of every node whose gate blocks, less those the
 * baseline accepts. The set `check --fail-on block` fails on, a hook blocks on, and a
 * completion proof lists as open (a proof reads no baseline, so it lists them all).
 */
export function blockingFindings(result: WorkItemResult): Diagnostic[] {
  return result.nodes.filter((node) => node.outcome === 'block').flatMap((node) => node.findings.filter((d) => d.severity === 'error' && d.baselined !== true));
}
