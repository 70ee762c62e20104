import { nonEmptyString, parseJsonObject } from '@the-loop/core';

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
  const parsed = parseJsonObject(text, 'the hook payload on stdin');
  if (!parsed.ok) return parsed;
  const o = parsed.value;
  const input = o['tool_input'] && typeof o['tool_input'] === 'object' ? (o['tool_input'] as Record<string, unknown>) : {};
  return {
    ok: true,
    payload: {
      event: nonEmptyString(o['hook_event_name']) ?? '',
      sessionId: nonEmptyString(o['session_id']),
      cwd: nonEmptyString(o['cwd']),
      stopHookActive: o['stop_hook_active'] === true,
      toolName: nonEmptyString(o['tool_name']),
      filePath: nonEmptyString(input['file_path']) ?? nonEmptyString(input['notebook_path']),
    },
  };
}
