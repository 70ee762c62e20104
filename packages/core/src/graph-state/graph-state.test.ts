import { describe, expect, it } from 'vitest';
import { getDefaultGraph } from '../graph/compile-graph.js';
import { emptyGraphState, parseGraphState, serializeGraphState } from './graph-state.js';
import { startGraph } from './transition.js';

describe('parseGraphState', () => {
  const valid = serializeGraphState(startGraph(getDefaultGraph(), 'issue-3', '2026-01-01T00:00:00.000Z').state);

  it('reads back what it wrote', () => {
    const result = parseGraphState('docs/specs/issue-3/graph-state.json', valid, 'issue-3');
    expect(result.ok && result.state.currentNode).toBe('brainstorming');
  });

  it('names the file and line of a truncated file instead of resetting', () => {
    const result = parseGraphState('docs/specs/issue-3/graph-state.json', valid.slice(0, 80));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues[0]).toMatchObject({ file: 'docs/specs/issue-3/graph-state.json', message: expect.stringContaining('not valid JSON') });
  });

  it('puts a JSON syntax error at its line and column, whatever the line endings', () => {
    for (const eol of ['\n', '\r\n', '\r']) {
      const result = parseGraphState('graph-state.json', ['{', '  "workItem": "a",', '}'].join(eol));
      expect(result.ok ? undefined : result.issues[0]).toMatchObject({ line: 3, column: 1 });
    }
  });

  it('points at the offending key of a schema violation', () => {
    const broken = valid.replace('"approvals": []', '"approvals": [{"artifact": "design.md", "digest": "abc", "by": "x", "at": "yesterday"}]').replace('"escalated": null', '"escalated": null,\n  "sneaky": true');
    const result = parseGraphState('graph-state.json', broken);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const messages = result.issues.map((i) => `${i.line} ${i.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([expect.stringMatching(/^\d+ approvals\[0\]\.digest: must be a hex SHA-256 digest$/), expect.stringMatching(/^\d+ approvals\[0\]\.at: must be an ISO-8601 timestamp$/), expect.stringMatching(/^\d+ unknown key "sneaky"$/)]),
    );
    const sneakyLine = broken.split('\n').findIndex((l) => l.includes('sneaky')) + 1;
    expect(result.issues.find((i) => i.message.includes('sneaky'))?.line).toBe(sneakyLine);
  });

  it('says in one short problem what a foreign or older file is and how to migrate, instead of a schema dump', () => {
    const older = JSON.stringify({ work_item: 'issue-3', current_phase: 'design', phases: { design: { attempts: 2 } }, history: [], approvals: [{ phase: 'requirements', by: 'ann' }], updated: '2025-11-02' }, null, 2);
    const result = parseGraphState('docs/specs/issue-3/graph-state.json', older, 'issue-3');
    expect(result).toEqual({
      ok: false,
      issues: [{ file: 'docs/specs/issue-3/graph-state.json', line: 1, column: 1, message: expect.stringMatching(/^not a graph state of this the-loop: a JSON object without "schemaVersion": 1 \(keys: work_item, current_phase, phases, history, approvals, …\)/) }],
      migration: expect.stringMatching(/^Move it aside \(git mv docs\/specs\/issue-3\/graph-state\.json docs\/specs\/issue-3\/graph-state\.legacy\.json\).*the-loop graph approve/),
    });
    expect(!result.ok && result.issues[0]!.message.length).toBeLessThan(200);
    expect(parseGraphState('g.json', '[1, 2]')).toMatchObject({ ok: false, issues: [{ message: expect.stringContaining('JSON list, not an object') }] });
  });

  it('tells a file from a newer the-loop to upgrade', () => {
    expect(parseGraphState('g.json', '{"schemaVersion": 2, "workItem": "a"}')).toMatchObject({ ok: false, issues: [{ message: expect.stringContaining('newer the-loop (schemaVersion 2)') }], migration: expect.stringContaining('Upgrade') });
  });

  it('refuses a state that belongs to another work item', () => {
    const result = parseGraphState('graph-state.json', valid, 'issue-4');
    expect(!result.ok && result.issues[0]!.message).toContain('belongs to "issue-4"');
  });
});

describe('a graph state that does not fit the graph', () => {
  it('names a currentNode, parked or escalated node the graph does not declare, at its line', () => {
    const graph = getDefaultGraph();
    const state = { ...emptyGraphState('issue-3'), currentNode: 'nowhere', parked: { node: 'gone', since: '2026-01-01T00:00:00.000Z', reason: 'r' } };
    const result = parseGraphState('graph-state.json', serializeGraphState(state), 'issue-3', graph);
    expect(result.ok ? [] : result.issues.map((i) => `${i.line}:${i.column} ${i.message.split(',')[0]}`)).toEqual([
      '4:18 currentNode names "nowhere"',
      expect.stringMatching(/^\d+:\d+ parked\.node names "gone"/),
    ]);
    expect(parseGraphState('graph-state.json', serializeGraphState({ ...emptyGraphState('issue-3'), currentNode: 'escalated' }), 'issue-3', graph).ok).toBe(true);
  });
});
