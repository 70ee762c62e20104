/** Claude Code's reply to a Stop event: block with a reason (Claude continues with it), or allow. */
export function claudeStopReply(block: { reason: string } | undefined): Record<string, unknown> {
  return block ? { decision: 'block', reason: block.reason } : {};
}

/** Context injected into the conversation (`SessionStart`, `UserPromptSubmit`, `PostToolUse`). */
export function claudeContextReply(event: 'SessionStart' | 'UserPromptSubmit' | 'PostToolUse', text: string | undefined): Record<string, unknown> {
  return text ? { hookSpecificOutput: { hookEventName: event, additionalContext: text } } : {};
}
