import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { claudeAdapter } from './index.js';

const { hooks } = claudeAdapter;
const text = fc.string({ minLength: 1 });

describe('Claude Code hook dialect', () => {
  it('reads back from a reply exactly what the reply tells the agent, and nothing from an allow', () => {
    fc.assert(
      fc.property(text, fc.constantFrom(...hooks.events.map((e) => e.name)), (said, event) => {
        expect(hooks.replyText(hooks.stopReply(said))).toBe(said);
        expect(hooks.replyText(hooks.contextReply(event, said))).toBe(said);
      }),
    );
    expect(hooks.replyText(hooks.stopReply(undefined))).toBe('');
    expect(hooks.contextReply('SessionStart', undefined)).toEqual({});
  });

  it('parses the sample payload of every event back into the common payload', () => {
    const sample = { sessionId: 'doctor-1', projectDir: '/p', filePath: '/p/docs/specs/a/tasks.md' };
    for (const { name, kind } of hooks.events) {
      const parsed = hooks.parsePayload(JSON.stringify(hooks.samplePayload(name, sample)));
      expect(parsed).toEqual({ ok: true, payload: { event: name, sessionId: 'doctor-1', projectDir: null, cwd: '/p', filePath: kind === 'edit' ? sample.filePath : null, turnStatus: null, continuing: false } });
    }
  });

  it('refuses a payload that is not a JSON object', () => {
    expect(hooks.parsePayload('[1]')).toEqual({ ok: false, error: 'the hook payload on stdin is not a JSON object' });
  });
});
