import type { FailOn } from '@the-loop/hooks';
import type { Diagnostic, WorkItemResult } from '@the-loop/core';

/** How loudly a CI format reports a finding: SARIF's levels (GitHub calls `note` a notice). */
export type Level = 'error' | 'warning' | 'note';

/**
 * A finding's level under the chosen `--fail-on`. Under `block`, a finding on a node that only
 * waits on a person does not fail the run, so it must not read as an error beside a green check;
 * nor does a finding the baseline accepts, under either.
 */
export function levelOf(result: WorkItemResult, d: Diagnostic, failOn: FailOn): Level {
  if (d.baselined === true) return 'note';
  if (d.severity !== 'error') return 'warning';
  if (failOn === 'unmet') return 'error';
  const outcome = result.nodes.find((n) => n.node === d.node)?.outcome;
  return outcome === 'block' ? 'error' : 'note';
}
