import { nonEmptyString, parseJsonObject } from '@the-loop/core';

/** The Cursor hook events the-loop answers. */
export const CURSOR_HOOK_EVENTS = ['stop', 'sessionStart', 'afterFileEdit'] as const;
export type CursorHookEvent = (typeof CURSOR_HOOK_EVENTS)[number];

/** The fields of a Cursor hook payload the-loop reads. */
export interface CursorHookPayload {
  readonly event: string;
  /** The conversation the hook belongs to: the no-progress count is kept per conversation. */
  readonly sessionId: string | null;
  readonly workspaceRoot: string | null;
  /** `stop` only: `completed`, `aborted` or `error`. */
  readonly status: string | null;
  readonly loopCount: number | null;
  /** `afterFileEdit` only. */
  readonly filePath: string | null;
}

/** Parse the JSON Cursor writes to a hook's stdin. */
export function parseCursorPayload(text: string): { ok: true; payload: CursorHookPayload } | { ok: false; error: string } {
  const parsed = parseJsonObject(text, 'the hook payload on stdin');
  if (!parsed.ok) return parsed;
  const o = parsed.value;
  const roots = Array.isArray(o['workspace_roots']) ? (o['workspace_roots'] as unknown[]) : [];
  return {
    ok: true,
    payload: {
      event: nonEmptyString(o['hook_event_name']) ?? '',
      sessionId: nonEmptyString(o['conversation_id']) ?? nonEmptyString(o['session_id']),
      workspaceRoot: nonEmptyString(roots[0]),
      status: nonEmptyString(o['status']),
      loopCount: typeof o['loop_count'] === 'number' ? o['loop_count'] : null,
      filePath: nonEmptyString(o['file_path']),
    },
  };
}
