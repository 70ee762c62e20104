// The command line `hooks install` writes for a harness event: `<launcher> hook <event> --harness <name>`.
// Every adapter's settings merge recognises its own entries by it.

/** The command line installed for one event. */
export function hookCommand(launcher: string, harness: string, event: string): string {
  return `${launcher} hook ${event} --harness ${harness}`;
}

/** The event an installed command line answers, when it is one of the-loop's for this harness. */
export function hookCommandEvent(command: unknown, harness: string): string | undefined {
  if (typeof command !== 'string') return undefined;
  const words = command.trim().split(/\s+/);
  const [hook, event, flag, name] = words.slice(-4);
  return words.length >= 4 && hook === 'hook' && flag === '--harness' && name === harness ? event : undefined;
}
