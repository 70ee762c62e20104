import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cursorAdapter } from './index.js';

const { hooks } = cursorAdapter;
const text = fc.string({ minLength: 1 });

describe('Cursor hook dialect', () => {
  it('reads back from a reply exactly what the reply tells the agent, and nothing from an allow', () => {
    fc.assert(
      fc.property(text, (said) => {
        expect(hooks.replyText(hooks.stopReply(said))).toBe(said);
        expect(hooks.replyText(hooks.contextReply('sessionStart', said))).toBe(said);
      }),
    );
    expect(hooks.replyText(hooks.stopReply(undefined))).toBe('');
    expect(hooks.events.filter((e) => !e.takesContext).map((e) => e.name)).toEqual(['afterFileEdit']);
  });

  it('parses the sample payload of every event back into the common payload', () => {
    const sample = { sessionId: 'doctor-1', projectDir: '/p', filePath: '/p/docs/specs/a/tasks.md' };
    for (const { name, kind } of hooks.events) {
      const parsed = hooks.parsePayload(JSON.stringify(hooks.samplePayload(name, sample)));
      expect(parsed).toEqual({
        ok: true,
        payload: { event: name, sessionId: 'doctor-1', projectDir: '/p', cwd: null, filePath: kind === 'edit' ? sample.filePath : null, turnStatus: kind === 'stop' ? 'completed' : null, continuing: false },
      });
    }
  });
});
