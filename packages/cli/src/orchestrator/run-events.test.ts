import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runEvents } from './run-events.js';

function sink(isTTY: boolean) {
  const chunks: string[] = [];
  const stream = Object.assign(
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk.toString('utf8'));
        done();
      },
    }),
    { isTTY },
  );
  return { stream, text: () => chunks.join('') };
}

describe('run progress', () => {
  const clock = (...seconds: number[]) => {
    const times = seconds.map((s) => new Date(Date.UTC(2026, 2, 1, 10, 0, s)));
    return () => times.shift() ?? new Date(Date.UTC(2026, 2, 1, 10, 1, 0));
  };

  it('writes one JSON object per line with event, requestId, workItem, node and at first', () => {
    const out = sink(false);
    const events = runEvents({ stream: out.stream, env: {}, requestId: 'r-1', workItem: 'issue-7', now: clock(0, 5) });
    events.emit('gate.evaluated', 'design', { outcome: 'block', findings: 2 });
    const line = out.text();
    expect(line.endsWith('\n')).toBe(true);
    expect(Object.keys(JSON.parse(line))).toEqual(['event', 'requestId', 'workItem', 'node', 'at', 'outcome', 'findings']);
    expect(JSON.parse(line)).toEqual({ event: 'gate.evaluated', requestId: 'r-1', workItem: 'issue-7', node: 'design', at: '2026-03-01T10:00:05.000Z', outcome: 'block', findings: 2 });
  });

  it('writes a line a person reads at a terminal: elapsed, work item, node, attempt and what happened', () => {
    const out = sink(true);
    const events = runEvents({ stream: out.stream, env: { NO_COLOR: '1' }, requestId: 'r-1', workItem: 'issue-7', now: clock(0, 41, 75) });
    events.emit('harness.invoked', 'design', { harness: 'claude', purpose: 'work', attempt: 2, model: 'opus' });
    events.emit('gate.evaluated', 'design', { outcome: 'block', findings: 2 });
    expect(out.text()).toBe('00:41 issue-7 · design · attempt 2 · claude started (work, model opus)\n01:15 issue-7 · design · gate block (2 unmet)\n');
  });
});
