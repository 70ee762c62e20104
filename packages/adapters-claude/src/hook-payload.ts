/** The Claude Code hook events the-loop answers. */
export const CLAUDE_HOOK_EVENTS = ['Stop', 'SessionStart', 'UserPromptSubmit', 'PostToolUse'] as const;
export type ClaudeHookEvent = (typeof CLAUDE_HOOK_EVENTS)[number];

/** The fields of a Claude Code hook payload the-loop reads. */
export interface ClaudeHookPayload {
  readonly event: string;
  readonly sessionId: string | null;
  readonly cwd: string | null;
  /** True when Claude is already continuing because of a Stop hook (informational: the cap does not rely on it). */
  readonly stopHookActive: boolean;
  readonly toolName: string | null;
  /** `tool_input.file_path` of a write. */
  readonly filePath: string | null;
}

/** Parse the JSON Claude Code writes to a hook's stdin. */
export function parseClaudePayload(text: string): { ok: true; payload: ClaudeHookPayload } | { ok: false; error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `the hook payload on stdin is not JSON: ${(error as Error).message}` };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { ok: false, error: 'the hook payload on stdin is not a JSON object' };
  const o = value as Record<string, unknown>;
  const text_ = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
  const input = o['tool_input'] && typeof o['tool_input'] === 'object' ? (o['tool_input'] as Record<string, unknown>) : {};
  return {
    ok: true,
    payload: {
      event: text_(o['hook_event_name']) ?? '',
      sessionId: text_(o['session_id']),
      cwd: text_(o['cwd']),
      stopHookActive: o['stop_hook_active'] === true,
      toolName: text_(o['tool_name']),
      filePath: text_(input['file_path']) ?? text_(input['notebook_path']),
    },
  };
}
