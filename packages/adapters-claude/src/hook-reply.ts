/** Claude Code's reply to a Stop event: block with a reason (Claude continues with it), or allow. */
export function claudeStopReply(continuation: string | undefined): Record<string, unknown> {
  return continuation ? { decision: 'block', reason: continuation } : {};
}

/** Context injected into the conversation (`SessionStart`, `UserPromptSubmit`, `PostToolUse`). */
export function claudeContextReply(event: string, text: string | undefined): Record<string, unknown> {
  return text ? { hookSpecificOutput: { hookEventName: event, additionalContext: text } } : {};
}

/** What a Claude Code reply tells the agent: a block's reason and any added context. */
export function claudeReplyText(reply: Record<string, unknown>): string {
  const specific = reply['hookSpecificOutput'];
  const context = specific && typeof specific === 'object' ? (specific as Record<string, unknown>)['additionalContext'] : undefined;
  return [reply['decision'] === 'block' ? reply['reason'] : undefined, context].filter((part): part is string => typeof part === 'string').join('\n');
}
