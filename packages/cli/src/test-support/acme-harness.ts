// Test support: a third harness, "Acme Agent", that exists only here. It proves the harness
// port is the whole of what the CLI needs: registered through CommandEnv.adapters, it gets
// hooks, install and doctor with no change to the CLI.
import { hookCommand, hookCommandEvent, nonEmptyString, parseJsonObject, parseResultLike, type HarnessAdapter, type SettingsResult } from '@the-loop/core';

const NAME = 'acme';

type Json = Record<string, unknown>;

// `.acme/hooks.json`: `{ "hooks": { "<event>": "<command line>" } }`, beside other keys.
function checkShape(settings: unknown): { ok: true; value: Json; hooks: Json } | { ok: false; error: string } {
  const value = settings === undefined ? {} : settings;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { ok: false, error: 'the hooks file is not a JSON object' };
  const hooks = (value as Json)['hooks'] ?? {};
  if (!hooks || typeof hooks !== 'object' || Array.isArray(hooks)) return { ok: false, error: '"hooks" is not an object' };
  return { ok: true, value: structuredClone(value as Json), hooks: structuredClone(hooks as Json) };
}

export const acmeAdapter: HarnessAdapter = {
  name: NAME,
  title: 'Acme Agent',
  binary: 'acme-agent',
  oneShot: (request) => ({ args: ['--once'], stdin: request.prompt }),
  parseResult: parseResultLike,
  hooks: {
    events: [
      { name: 'turn-end', kind: 'stop', takesContext: true },
      { name: 'session-begin', kind: 'context', takesContext: true },
      { name: 'file-saved', kind: 'edit', takesContext: true },
    ],
    parsePayload(text) {
      const parsed = parseJsonObject(text, 'the acme payload');
      if (!parsed.ok) return parsed;
      const o = parsed.value;
      return {
        ok: true,
        payload: { event: nonEmptyString(o['event']) ?? '', sessionId: nonEmptyString(o['session']), projectDir: nonEmptyString(o['project']), cwd: null, filePath: nonEmptyString(o['file']), turnStatus: null, continuing: o['again'] === true },
      };
    },
    stopReply: (continuation) => (continuation ? { action: 'continue', message: continuation } : { action: 'stop' }),
    contextReply: (_event, text) => (text ? { context: text } : {}),
    replyText: (reply) => [reply['action'] === 'continue' ? reply['message'] : undefined, reply['context']].filter((part): part is string => typeof part === 'string').join('\n'),
    samplePayload: (event, sample) => ({ event, session: sample.sessionId, project: sample.projectDir, ...(event === 'file-saved' ? { file: sample.filePath } : {}) }),
  },
  settings: {
    file: '.acme/hooks.json',
    defaultLauncher: 'node_modules/.bin/the-loop',
    install(settings, launcher): SettingsResult {
      const checked = checkShape(settings);
      if (!checked.ok) return checked;
      for (const event of acmeAdapter.hooks.events) checked.hooks[event.name] = hookCommand(launcher, NAME, event.name);
      return { ok: true, value: { ...checked.value, hooks: checked.hooks } };
    },
    uninstall(settings): SettingsResult {
      const checked = checkShape(settings);
      if (!checked.ok) return checked;
      for (const [event, command] of Object.entries(checked.hooks)) if (hookCommandEvent(command, NAME) === event) delete checked.hooks[event];
      return { ok: true, value: { ...checked.value, hooks: checked.hooks } };
    },
    installed(settings) {
      const checked = checkShape(settings);
      const found = new Map<string, string>();
      if (checked.ok) for (const [event, command] of Object.entries(checked.hooks)) if (hookCommandEvent(command, NAME) === event) found.set(event, String(command).trim());
      return found;
    },
  },
};
