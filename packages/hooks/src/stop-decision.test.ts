import fc from 'fast-check';
import { compileGraph, evaluateWorkItem, type WorkItemResult } from '@the-loop/core';
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { decideStop, decideStopFailure, type StopCounter } from './stop-decision.js';

const GRAPH = (human: boolean) => `
start: requirements
nodes:
  - {id: requirements, phase: requirements-definition, actor: agent, produces: requirements.md, gate: [{locked: true}]}
${human ? '  - {id: approval, phase: requirements-definition, actor: human, produces: requirements.md, gate: [{approved: requirements.md}]}\n' : ''}  - {id: implementation, phase: implementation, actor: agent, produces: tasks.md, gate: [{tasksComplete: true}]}
edges:
${human ? '  - {from: requirements, to: approval, on: pass}\n  - {from: approval, to: implementation, on: pass}' : '  - {from: requirements, to: implementation, on: pass}'}
`;

function evaluate(tasks: string, human = false): WorkItemResult {
  const compiled = compileGraph('graph.yaml', GRAPH(human));
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.issues));
  const files = new Map([
    ['requirements.md', { text: '---\nstatus: approved\n---\n# R\n\nText.\n' }],
    ['tasks.md', { text: tasks }],
  ]);
  return evaluateWorkItem(compiled.graph, { id: 'item', dir: 'docs/specs/item', files });
}

// The CLI keeps counters under SHA-256; the decision takes the digest function as an input.
const digest = (text: string) => createHash('sha256').update(text).digest('hex');

const OPEN = evaluate('# Tasks\n\n- [ ] one\n- [x] two\n');

/** Feed the same result `n` times, threading the counter like the CLI does. */
function replay(result: WorkItemResult, n: number, cap: number, session: string | null = 's'): string[] {
  let counter: StopCounter | undefined;
  const kinds: string[] = [];
  for (let i = 0; i < n; i += 1) {
    const decision = decideStop({ result, previous: counter, cap, session, digest });
    counter = decision.counter;
    kinds.push(decision.kind === 'block' ? 'block' : decision.escalation ? 'escalate' : 'allow');
  }
  return kinds;
}

describe('decideStop', () => {
  it('blocks with a reason naming the finding and its place', () => {
    const decision = decideStop({ result: OPEN, previous: undefined, cap: 3, session: 's', digest });
    expect(decision.kind).toBe('block');
    if (decision.kind === 'block') expect(decision.reason).toContain('- docs/specs/item/tasks.md:3:1 tasks-incomplete');
  });

  it('lists at most 20 findings and says how many more, so a huge tasks file does not flood the reply', () => {
    const many = evaluate(`# Tasks\n\n${'- [ ] open\n'.repeat(500)}`);
    const decision = decideStop({ result: many, previous: undefined, cap: 3, session: 's', digest });
    if (decision.kind !== 'block') throw new Error('expected a block');
    expect(decision.reason.split('\n').filter((line) => line.includes(' tasks-incomplete: '))).toHaveLength(20);
    expect(decision.reason).toContain('- … 480 more: run `the-loop check item`');
    expect(decision.findings).toHaveLength(500);
  });

  it('the same findings are blocked at most `cap` times in a row, then allowed for good in that session', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 20 }), (cap, n) => {
        const kinds = replay(OPEN, n, cap);
        const blocks = kinds.filter((k) => k === 'block').length;
        expect(blocks).toBe(Math.min(n, cap));
        expect(kinds.slice(0, blocks).every((k) => k === 'block')).toBe(true);
        expect(kinds.filter((k) => k === 'escalate').length).toBe(n > cap ? 1 : 0);
        expect(kinds.slice(blocks + 1).every((k) => k === 'allow')).toBe(true);
      }),
    );
  });

  it('a change in findings resets the count', () => {
    const first = decideStop({ result: OPEN, previous: undefined, cap: 1, session: 's', digest });
    const changed = evaluate('# Tasks\n\n- [ ] one\n- [ ] two\n');
    const second = decideStop({ result: changed, previous: first.counter, cap: 1, session: 's', digest });
    expect(second.kind).toBe('block');
    const same = decideStop({ result: changed, previous: second.counter, cap: 1, session: 's', digest });
    expect(same.kind).toBe('allow');
  });

  it('never blocks while the current node waits on a human, whatever the counter says', () => {
    const waiting = evaluate('# Tasks\n\n- [ ] one\n', true);
    fc.assert(
      fc.property(fc.option(fc.record({ digest: fc.string(), count: fc.nat(10), session: fc.option(fc.string()), escalated: fc.boolean() }), { nil: undefined }), (previous) => {
        const decision = decideStop({ result: waiting, previous, cap: 3, session: 's', digest });
        expect(decision.kind).toBe('allow');
        expect(decision.counter).toBeUndefined();
      }),
    );
  });

  it('allows a complete item and clears the counter', () => {
    const done = evaluate('# Tasks\n\n- [x] one\n');
    expect(done.ok).toBe(true);
    const decision = decideStop({ result: done, previous: { digest: 'x', count: 2, session: 's', escalated: false }, cap: 3, session: 's', digest });
    expect(decision).toMatchObject({ kind: 'allow', counter: undefined });
  });
});

describe('decideStopFailure: a Stop hook that cannot decide blocks, boundedly', () => {
  const failing = (previous: StopCounter | undefined, extra: { counted?: boolean; continuing?: boolean; problem?: string; session?: string | null } = {}) =>
    decideStopFailure({ problem: extra.problem ?? 'the configuration is invalid: c.yaml:3:5 x', hint: 'fix it.', previous, counted: extra.counted ?? true, continuing: extra.continuing ?? false, cap: 2, session: extra.session === undefined ? 's' : extra.session, digest });

  it('blocks with the problem as the next step, then lets the stop through at the cap', () => {
    const kinds: string[] = [];
    let counter: StopCounter | undefined;
    for (let i = 0; i < 4; i += 1) {
      const decision = failing(counter);
      kinds.push(decision.kind);
      if (decision.kind === 'block') expect(decision.reason).toContain('the configuration is invalid: c.yaml:3:5 x');
      counter = decision.counter;
    }
    expect(kinds).toEqual(['block', 'block', 'allow', 'allow']);
  });

  it('counts a different problem, or another session, afresh', () => {
    const first = failing(undefined);
    expect(failing(first.counter, { problem: 'evaluating took longer than 30 s' }).counter).toMatchObject({ count: 1 });
    expect(failing(first.counter, { session: 'other' }).counter).toMatchObject({ count: 1 });
  });

  it('without a counter, blocks a first stop and lets through one the harness is already continuing', () => {
    expect(failing(undefined, { counted: false, continuing: false }).kind).toBe('block');
    expect(failing(undefined, { counted: false, continuing: true }).kind).toBe('allow');
  });

  it('never blocks more than cap times in a row for one problem, whatever the sequence of flags', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: 1, maxLength: 12 }), (continuing) => {
        let counter: StopCounter | undefined;
        let run = 0;
        for (const flag of continuing) {
          const decision = failing(counter, { continuing: flag });
          run = decision.kind === 'block' ? run + 1 : 0;
          expect(run).toBeLessThanOrEqual(2);
          counter = decision.counter;
        }
      }),
    );
  });
});
