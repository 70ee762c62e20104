import { nonEmptyString, parseJsonObject, type HookEvent, type HookPayload, type SamplePayload } from '@the-loop/core';

/** The Claude Code hook events the-loop answers. */
export const CLAUDE_HOOK_EVENTS: readonly HookEvent[] = [
  { name: 'Stop', kind: 'stop', takesContext: true },
  { name: 'SessionStart', kind: 'context', takesContext: true },
  { name: 'UserPromptSubmit', kind: 'context', takesContext: true },
  { name: 'PostToolUse', kind: 'edit', takesContext: true },
];

/** Parse the JSON Claude Code writes to a hook's stdin. */
export function parseClaudePayload(text: string): { ok: true; payload: HookPayload } | { ok: false; error: string } {
  const parsed = parseJsonObject(text, 'the hook payload on stdin');
  if (!parsed.ok) return parsed;
  const o = parsed.value;
  const input = o['tool_input'] && typeof o['tool_input'] === 'object' ? (o['tool_input'] as Record<string, unknown>) : {};
  return {
    ok: true,
    payload: {
      event: nonEmptyString(o['hook_event_name']) ?? '',
      sessionId: nonEmptyString(o['session_id']),
      // Claude names the project in $CLAUDE_PROJECT_DIR, not in the payload.
      projectDir: null,
      cwd: nonEmptyString(o['cwd']),
      filePath: nonEmptyString(input['file_path']) ?? nonEmptyString(input['notebook_path']),
      turnStatus: null,
      continuing: o['stop_hook_active'] === true,
    },
  };
}

/** A payload shaped as Claude Code documents it for `event`. */
export function sampleClaudePayload(event: string, sample: SamplePayload): Record<string, unknown> {
  const base = { session_id: sample.sessionId, transcript_path: `${sample.projectDir}/transcript.jsonl`, cwd: sample.projectDir, hook_event_name: event };
  switch (event) {
    case 'Stop':
      return { ...base, stop_hook_active: false };
    case 'PostToolUse':
      return { ...base, tool_name: 'Write', tool_input: { file_path: sample.filePath }, tool_response: { success: true } };
    case 'UserPromptSubmit':
      return { ...base, prompt: 'carry on' };
    default:
      return { ...base, source: 'startup' };
  }
}
