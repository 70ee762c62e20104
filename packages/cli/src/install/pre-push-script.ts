/** The first comment line of the pre-push script the-loop installs: how it recognises its own. */
export const PRE_PUSH_MARKER = '# the-loop pre-push gate';

/** Where a pre-push hook that was already there is kept, and run from, after the gate. */
export const CHAINED_SUFFIX = '.pre-the-loop';

/** The git launcher when none is given: the project's own install. Git runs hooks from the work tree's top. */
export const GIT_DEFAULT_LAUNCHER = 'node_modules/.bin/the-loop';

/** The pre-push script: a single exec, so git's stdin and arguments reach the gate untouched. */
export function prePushScript(launcher: string): string {
  return [
    '#!/bin/sh',
    `${PRE_PUSH_MARKER}: installed by \`the-loop hooks install --git\`, removed by \`the-loop hooks install --git --uninstall\`.`,
    `# A pre-push hook that was here before is kept as pre-push${CHAINED_SUFFIX} and runs after the gate passes.`,
    `exec ${launcher} hook pre-push --chain "$0${CHAINED_SUFFIX}" "$@"`,
    '',
  ].join('\n');
}

/** Whether a script is the one the-loop installs. */
export function isOwnPrePush(text: string): boolean {
  return text.split('\n', 3).some((line) => line.startsWith(PRE_PUSH_MARKER));
}

/** The command line the installed script runs, for doctor. */
export function prePushCommand(text: string): string | undefined {
  return /^exec (.+)$/m.exec(text)?.[1];
}
