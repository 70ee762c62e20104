/**
 * A harness session the-loop starts itself — a critic round, a model probe — runs in the
 * project whose hooks are installed, so its Stop would be held by the author's gate and its
 * start given the author's assignment. the-loop marks those sessions in their environment,
 * which the harness passes on to hook commands, and its harness hooks step aside there.
 */
const VARIABLE = 'THE_LOOP_HOOKS';

/** `env` with the-loop's harness hooks turned off for the process started with it. */
export function withHooksOff(env: Readonly<Record<string, string | undefined>>): Record<string, string | undefined> {
  return { ...env, [VARIABLE]: 'off' };
}

/** Whether this hook runs in a session the-loop started with its hooks off. */
export function hooksAreOff(env: NodeJS.ProcessEnv): boolean {
  return env[VARIABLE] === 'off';
}

/** What a hook says on stderr when it steps aside. */
export const HOOKS_OFF_NOTE = `${VARIABLE}=off: a session the-loop started itself (a critic round or a model probe); its hooks step aside.`;
