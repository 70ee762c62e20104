import type { Diagnostic } from '../diagnostic.js';
import { findingLines, findingWithFix } from '../format/finding-lines.js';
import { describePredicate } from '../rules/predicates.js';
import type { GraphNode } from '../graph/types.js';

/** A file disclosed to the agent at one node (a node's `references`). */
export interface Reference {
  /** Relative to the repository root. */
  readonly path: string;
  readonly text: string;
}

/** What an assignment is rendered from. */
export interface AssignmentInput {
  readonly node: GraphNode;
  readonly workItem: string;
  /** The work item's folder relative to the repository root (`docs/specs/issue-7`), when known. */
  readonly dir?: string | undefined;
  /** The gate's unmet findings, or lines already formatted. */
  readonly unmet: readonly (Diagnostic | string)[];
  /** The node's reference material, read by the caller. */
  readonly references?: readonly Reference[] | undefined;
  /** Which attempt this is, when the node is being re-dispatched. */
  readonly attempt?: { readonly number: number; readonly of: number } | undefined;
  /** Why the previous attempt's harness run failed, in its own words. */
  readonly previousFailure?: string | undefined;
  /** A review round's findings for the author to address (the fix after a round with new findings). */
  readonly review?: { readonly cycle: number; readonly reviewer: string; readonly findings: readonly string[] } | undefined;
}

/**
 * The text an agent gets for a node: the node, what to produce and where, the gate in words,
 * what is unmet (with `file:line` and the fix), the node's reference material and the
 * command that claims the node. Pure: the same input is the same prompt.
 */
export function renderAssignment(input: AssignmentInput): string {
  const { node, workItem } = input;
  const where = input.dir !== undefined ? ` (${input.dir})` : '';
  const attempt = input.attempt && input.attempt.number > 1 ? `, attempt ${input.attempt.number} of ${input.attempt.of}` : '';
  const blocks: string[] = [`Node "${node.id}" of work item ${workItem}${where}: phase ${node.phase}${attempt}.`];
  if (node.assignment) blocks.push(node.assignment);
  const produce: string[] = [];
  if (node.alternatives.length > 0) {
    const files = node.alternatives.map((name) => (input.dir !== undefined ? `${input.dir}/${name}` : name));
    produce.push(`Produce or update: ${files.join(' or ')}.`);
  }
  if (node.gate.length > 0) produce.push('The gate passes when it has:', ...node.gate.map((p) => `- ${describePredicate(p)}`));
  if (produce.length > 0) blocks.push(produce.join('\n'));
  if (input.previousFailure) blocks.push(`The previous attempt did not finish: ${input.previousFailure}`);
  if (input.review) {
    const { cycle, reviewer, findings } = input.review;
    const lines = findingLines(workItem, findings, (finding) => `${reviewer} ${finding}`);
    blocks.push([`Review round ${cycle} by ${reviewer} reported these findings. Address each: fix it, or record in the execution log why it stands. Do not review again; the next round will.`, ...lines].join('\n'));
  }
  if (input.unmet.length > 0) {
    const lines = findingLines(workItem, input.unmet, (finding) => (typeof finding === 'string' ? finding : findingWithFix(finding)));
    blocks.push([`Unmet now (${input.unmet.length}); fix each:`, ...lines].join('\n'));
  }
  for (const reference of input.references ?? []) {
    blocks.push(`Reference material for this node, ${reference.path}:\n<<<\n${reference.text.replace(/\s+$/, '')}\n>>>`);
  }
  blocks.push(`When the gate passes, claim the node with: the-loop graph complete ${workItem} --node ${node.id}`);
  return `${blocks.join('\n\n')}\n`;
}
