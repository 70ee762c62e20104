import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileGraph } from '../graph/compile-graph.js';
import { choicePrompt, choiceSchema, readChoice } from './choice.js';

const CHOICES = ['self-review', 'tasks-breakdown'];

describe('readChoice', () => {
  it('takes a node from the declared set with its reason', () => {
    expect(readChoice({ next: 'tasks-breakdown', reason: ' the tasks\nmiss a test ' }, CHOICES)).toEqual({ ok: true, next: 'tasks-breakdown', reason: 'the tasks miss a test' });
  });

  it('refuses a node outside the set, naming it, and an answer of another shape, saying why', () => {
    expect(readChoice({ next: 'deploy', reason: 'ship it' }, CHOICES)).toEqual({ ok: false, requested: 'deploy', reason: 'the agent\'s reason: "ship it"' });
    expect(readChoice(undefined, CHOICES)).toEqual({ ok: false, requested: undefined, reason: 'the answer was not a JSON object' });
    expect(readChoice({ next: 'self-review' }, CHOICES)).toEqual({ ok: false, requested: undefined, reason: 'the answer is not {next, reason}: missing key "reason"' });
    expect(readChoice({ next: 'self-review', reason: 'x', extra: 1 }, CHOICES)).toMatchObject({ ok: false, reason: expect.stringContaining('unknown key "extra"') });
    expect(readChoice({ next: 3, reason: 'x' }, CHOICES)).toMatchObject({ ok: false, requested: undefined });
  });

  it('never yields a choice outside the declared set, whatever the answer', () => {
    const answer = fc.oneof(fc.anything(), fc.record({ next: fc.oneof(fc.constantFrom(...CHOICES), fc.string()), reason: fc.string() }));
    fc.assert(
      fc.property(answer, (value) => {
        const reading = readChoice(value, CHOICES);
        if (reading.ok) expect(CHOICES).toContain(reading.next);
        else if (reading.requested !== undefined) expect(CHOICES).not.toContain(reading.requested);
      }),
    );
  });
});

describe('the choice question', () => {
  it('offers exactly the declared nodes, as an enum in the schema and described in the prompt', () => {
    const compiled = compileGraph(
      'g.yaml',
      [
        'start: implementation',
        'nodes:',
        '  - {id: implementation, phase: implementation, actor: agent, produces: tasks.md, choices: [self-review, tasks-breakdown]}',
        '  - {id: self-review, phase: needs-review, actor: agent, assignment: "Review your own change."}',
        '  - {id: tasks-breakdown, phase: tasks-breakdown, actor: agent, produces: tasks.md}',
        'edges:',
        '  - {from: implementation, to: self-review, on: pass}',
        '  - {from: implementation, to: tasks-breakdown, on: rework}',
        '',
      ].join('\n'),
    );
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.issues));
    const node = compiled.graph.byId.get('implementation')!;
    expect(choiceSchema(node.choices!)).toMatchObject({ properties: { next: { enum: CHOICES } }, required: ['next', 'reason'], additionalProperties: false });
    const prompt = choicePrompt({ graph: compiled.graph, node, workItem: 'issue-7', dir: 'docs/specs/issue-7', fallback: 'self-review' });
    expect(prompt).toContain('- self-review: phase needs-review, actor agent — Review your own change.');
    expect(prompt).toContain('- tasks-breakdown: phase tasks-breakdown, actor agent, produces tasks.md');
    expect(prompt).toContain('{"next": "<one of: self-review, tasks-breakdown>", "reason": "<why, in a sentence or two>"}');
    expect(prompt).toContain('the work item then goes to "self-review"');
  });
});
