import * as v from 'valibot';
import { answerProblem } from './answer-problem.js';
import type { Graph, GraphNode } from '../graph/types.js';
import { builtOnFirstUse } from '../built-on-first-use.js';

// A reason is for people reading graph state; an essay there is noise, not evidence.
const MAX_REASON = 1000;

/** The JSON Schema of a choice: one node id from the declared set, and why. */
export function choiceSchema(choices: readonly string[]): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      next: { type: 'string', enum: [...choices], description: 'the id of the node that should run next' },
      reason: { type: 'string', description: 'one or two sentences: why this node' },
    },
    required: ['next', 'reason'],
    additionalProperties: false,
  };
}

const ChoiceAnswerSchema = builtOnFirstUse(() =>
  v.strictObject({ next: v.string(), reason: v.pipe(v.string(), v.maxLength(MAX_REASON)) }),
);

/** A choice as read: a node from the set, or why none can be taken. */
export type ChoiceReading =
  | { readonly ok: true; readonly next: string; readonly reason: string }
  /** `requested` is the id the answer named, when it named one outside the set (never one inside it). */
  | { readonly ok: false; readonly requested: string | undefined; readonly reason: string };

/**
 * Read an agent's structured choice. Only an answer shaped `{next, reason}` whose `next` is one
 * of `choices` is a choice; anything else — prose, another shape, a node outside the set — is
 * not, and says why, so the caller falls back to the static edge.
 */
export function readChoice(answer: unknown, choices: readonly string[]): ChoiceReading {
  if (answer === undefined) return { ok: false, requested: undefined, reason: 'the answer was not a JSON object' };
  const parsed = v.safeParse(ChoiceAnswerSchema, answer);
  if (!parsed.success) {
    const named = answer !== null && typeof answer === 'object' ? (answer as Record<string, unknown>)['next'] : undefined;
    // A valid id in a malformed answer is not a choice: only a node outside the set is named back.
    const requested = typeof named === 'string' && !choices.includes(named) ? named : undefined;
    return { ok: false, requested, reason: `the answer is not {next, reason}: ${answerProblem(ChoiceAnswerSchema, parsed.issues)}` };
  }
  const { next, reason } = parsed.output;
  if (!choices.includes(next)) return { ok: false, requested: next, reason: `the agent's reason: "${oneLine(reason)}"` };
  return { ok: true, next, reason: oneLine(reason) };
}

/** What the agent is told when it picks the next node. */
export interface ChoicePromptInput {
  readonly graph: Graph;
  readonly node: GraphNode;
  readonly workItem: string;
  readonly dir: string;
  /** Where the static `pass` edge leads: the node taken when no valid choice comes back. */
  readonly fallback: string | undefined;
}

/** The question put to the agent: the declared choices with what each node does, and the JSON to answer with. */
export function choicePrompt(input: ChoicePromptInput): string {
  const { graph, node } = input;
  const choices = node.choices ?? [];
  const described = choices.map((id) => {
    const target = graph.byId.get(id);
    const produces = target?.alternatives.length ? `, produces ${target.alternatives.join(' or ')}` : '';
    return `- ${id}: phase ${target?.phase ?? '?'}, actor ${target?.actor ?? '?'}${produces}${target?.assignment ? ` — ${oneLine(target.assignment)}` : ''}`;
  });
  return [
    `The gate of node "${node.id}" of work item ${input.workItem} (${input.dir}) passes. Choose the node that should run next.`,
    '',
    'You may choose only one of these declared nodes:',
    ...described,
    '',
    `Answer with exactly one JSON object and nothing else: {"next": "<one of: ${choices.join(', ')}>", "reason": "<why, in a sentence or two>"}.`,
    `An answer that is not that object, or names another node, is not taken: the work item then goes to "${input.fallback ?? '(none)'}".`,
    '',
  ].join('\n');
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
