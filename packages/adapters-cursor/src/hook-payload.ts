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
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `the hook payload on stdin is not JSON: ${(error as Error).message}` };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { ok: false, error: 'the hook payload on stdin is not a JSON object' };
  const o = value as Record<string, unknown>;
  const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
  const roots = Array.isArray(o['workspace_roots']) ? (o['workspace_roots'] as unknown[]) : [];
  return {
    ok: true,
    payload: {
      event: str(o['hook_event_name']) ?? '',
      sessionId: str(o['conversation_id']) ?? str(o['session_id']),
      workspaceRoot: str(roots[0]),
      status: str(o['status']),
      loopCount: typeof o['loop_count'] === 'number' ? o['loop_count'] : null,
      filePath: str(o['file_path']),
    },
  };
}
