// The command line `hooks install` writes for a harness event:
// `<launcher> hook <event> --harness <name> [--repo <dir>]`. Every adapter's settings merge
// recognises its own entries by it, with or without the pinned repository.

/**
 * The command line installed for one event. `repo` pins the repository the hook checks
 * (decision 072), written as the harness will expand it (`"$CLAUDE_PROJECT_DIR"`, or `.` for a
 * harness that starts hooks in the project root).
 */
export function hookCommand(launcher: string, harness: string, event: string, repo?: string): string {
  return `${launcher} hook ${event} --harness ${harness}${repo === undefined ? '' : ` --repo ${repo}`}`;
}

/** The event an installed command line answers, when it is one of the-loop's for this harness. */
export function hookCommandEvent(command: unknown, harness: string): string | undefined {
  if (typeof command !== 'string') return undefined;
  const words = command.trim().split(/\s+/);
  const pinned = words.length >= 6 && words[words.length - 2] === '--repo';
  const [hook, event, flag, name] = words.slice(pinned ? -6 : -4);
  return words.length >= 4 && hook === 'hook' && flag === '--harness' && name === harness ? event : undefined;
}
