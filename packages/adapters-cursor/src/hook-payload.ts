import { nonEmptyString, parseJsonObject, type HookEvent, type HookPayload, type SamplePayload } from '@the-loop/core';

/** The Cursor hook events the-loop answers. Cursor reads no reply to afterFileEdit. */
export const CURSOR_HOOK_EVENTS: readonly HookEvent[] = [
  { name: 'stop', kind: 'stop', takesContext: true },
  { name: 'sessionStart', kind: 'context', takesContext: true },
  { name: 'afterFileEdit', kind: 'edit', takesContext: false },
];

/** Parse the JSON Cursor writes to a hook's stdin. */
export function parseCursorPayload(text: string): { ok: true; payload: HookPayload } | { ok: false; error: string } {
  const parsed = parseJsonObject(text, 'the hook payload on stdin');
  if (!parsed.ok) return parsed;
  const o = parsed.value;
  const roots = Array.isArray(o['workspace_roots']) ? (o['workspace_roots'] as unknown[]) : [];
  return {
    ok: true,
    payload: {
      event: nonEmptyString(o['hook_event_name']) ?? '',
      // The conversation: the no-progress count is kept per conversation.
      sessionId: nonEmptyString(o['conversation_id']) ?? nonEmptyString(o['session_id']),
      projectDir: nonEmptyString(roots[0]),
      cwd: null,
      filePath: nonEmptyString(o['file_path']),
      // `stop` only: `completed`, `aborted` or `error`.
      turnStatus: nonEmptyString(o['status']),
      continuing: typeof o['loop_count'] === 'number' && o['loop_count'] > 0,
    },
  };
}

/** A payload shaped as Cursor documents it for `event`. */
export function sampleCursorPayload(event: string, sample: SamplePayload): Record<string, unknown> {
  const base = { conversation_id: sample.sessionId, generation_id: sample.sessionId, hook_event_name: event, workspace_roots: [sample.projectDir] };
  switch (event) {
    case 'stop':
      return { ...base, status: 'completed', loop_count: 0 };
    case 'afterFileEdit':
      return { ...base, file_path: sample.filePath, edits: [] };
    default:
      return { ...base, source: 'startup' };
  }
}
