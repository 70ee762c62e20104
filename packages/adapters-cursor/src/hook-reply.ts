/**
 * Cursor's reply to `stop`: it cannot block, but a `followup_message` is submitted as the
 * next user message (bounded by `loop_limit`). `{}` lets the agent stop.
 */
export function cursorStopReply(followup: string | undefined): Record<string, unknown> {
  return followup ? { followup_message: followup } : {};
}

/** Cursor's reply to `sessionStart`: `additional_context` is added to the conversation. */
export function cursorContextReply(_event: string, text: string | undefined): Record<string, unknown> {
  return text ? { additional_context: text } : {};
}

/** What a Cursor reply tells the agent: a follow-up message and any added context. */
export function cursorReplyText(reply: Record<string, unknown>): string {
  return [reply['followup_message'], reply['additional_context']].filter((part): part is string => typeof part === 'string').join('\n');
}
