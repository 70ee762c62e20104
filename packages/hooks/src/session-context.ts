import { describePredicate, findingLines, formatLocation, type Diagnostic, type Graph, type WorkItemResult } from '@the-loop/core';
import { blockingFindings, currentNodeOf } from './blocking-findings.js';

/**
 * The context a session start (or a prompt) gets: where the work item stands, what the
 * current node asks for, what is unmet, and the exact command that claims the node.
 */
export function sessionContext(graph: Graph, specDir: string, result: WorkItemResult): string {
  const id = result.workItem;
  const current = currentNodeOf(result);
  if (!current) {
    if (result.ok) return `the-loop: work item ${id} is complete; every gate passes.`;
    const left = blockingFindings(result);
    return [`the-loop: every node of work item ${id} is reached, but ${left.length} finding${left.length === 1 ? '' : 's'} must still be fixed:`, ...listed(id, left)].join('\n');
  }
  const node = graph.byId.get(current.node);
  const lines = [`the-loop: work item ${id} (${specDir}/${id}) is at node "${current.node}"${node ? ` (phase ${node.phase}, actor ${node.actor})` : ''}.`];
  if (current.outcome === 'wait') {
    lines.push(`This node waits on a human${node?.alternatives.length ? `: approval of ${node.alternatives.join(' or ')}` : ''}. Do not approve or advance it yourself; finish what you were asked and hand over.`);
    return lines.join('\n');
  }
  if (node) {
    const produce = node.alternatives.length > 0 ? `Write ${node.alternatives.join(' or ')} in ${specDir}/${id}` : 'Do the work of this node';
    const gate = node.gate.map(describePredicate);
    lines.push(`Assignment: ${node.assignment ?? `${produce}${gate.length > 0 ? ` so that its gate passes: ${gate.join('; ')}` : ''}.`}`);
  }
  const unmet = blockingFindings(result);
  if (unmet.length > 0) {
    lines.push(`Unmet now (${unmet.length}):`, ...listed(id, unmet));
  }
  lines.push(`When the gate passes, claim the node with: the-loop graph complete ${id} --node ${current.node}`);
  return lines.join('\n');
}

function listed(id: string, findings: readonly Diagnostic[]): string[] {
  return findingLines(id, findings, (d) => `${formatLocation(d)} ${d.ruleId}: ${d.message}`);
}
