import { hookCommand, hookCommandEvent, type SettingsResult } from '@the-loop/core';
import { CURSOR_HOOK_EVENTS } from './hook-payload.js';

/** The hooks file, relative to the project root. */
export const CURSOR_HOOKS = '.cursor/hooks.json';

/** The name installed commands pass as `--harness`. */
export const CURSOR_NAME = 'cursor';

/** Cursor runs project hooks from the project root. */
export const CURSOR_DEFAULT_LAUNCHER = 'node_modules/.bin/the-loop';

// The repository an installed hook checks: the root Cursor starts project hooks in, the one whose
// hooks.json installed it; the payload's first workspace root (another folder of a multi-root workspace) cannot move it.
const CURSOR_REPO_PIN = '.';

/** Follow-ups Cursor may submit in a row: its own maximum; the-loop's no-progress cap usually ends the loop first. */
export const CURSOR_LOOP_LIMIT = 5;

type Json = Record<string, unknown>;

// Whether a command is one of ours (`<launcher> hook <event> --harness cursor`), and for which event.
function ownCursorEvent(command: unknown): string | undefined {
  return hookCommandEvent(command, CURSOR_NAME);
}

/** Merge the-loop's hooks into `.cursor/hooks.json`'s value, keeping every entry the user has. Idempotent. */
export function installCursorHooks(file: unknown, launcher: string): SettingsResult {
  const checked = checkShape(file);
  if (!checked.ok) return checked;
  const root = structuredClone(checked.value);
  root['version'] ??= 1;
  const hooks = (root['hooks'] ??= {}) as Json;
  for (const { name: event } of CURSOR_HOOK_EVENTS) {
    const wanted: Json = { command: hookCommand(launcher, CURSOR_NAME, event, CURSOR_REPO_PIN), ...(event === 'stop' ? { loop_limit: CURSOR_LOOP_LIMIT } : {}) };
    const list = (hooks[event] ??= []) as Json[];
    const at = list.findIndex((entry) => ownCursorEvent(entry['command']) === event);
    if (at >= 0) list[at] = { ...list[at], ...wanted };
    else list.push(wanted);
    hooks[event] = list.filter((entry, i) => i === (at >= 0 ? at : list.length - 1) || ownCursorEvent(entry['command']) !== event);
  }
  return { ok: true, value: root };
}

/** Remove only the-loop's entries; events left empty by that removal go too. */
export function uninstallCursorHooks(file: unknown): SettingsResult {
  const checked = checkShape(file);
  if (!checked.ok) return checked;
  const root = structuredClone(checked.value);
  const hooks = root['hooks'] as Json | undefined;
  if (!hooks) return { ok: true, value: root };
  for (const [event, value] of Object.entries(hooks)) {
    const list = value as Json[];
    const kept = list.filter((entry) => ownCursorEvent(entry['command']) === undefined);
    if (kept.length === list.length) continue;
    if (kept.length > 0) hooks[event] = kept;
    else delete hooks[event];
  }
  return { ok: true, value: root };
}

/** The installed command for each event, as found in a hooks.json value. */
export function installedCursorCommands(file: unknown): Map<string, string> {
  const found = new Map<string, string>();
  const hooks = file && typeof file === 'object' ? (file as Json)['hooks'] : undefined;
  if (!hooks || typeof hooks !== 'object') return found;
  for (const [event, list] of Object.entries(hooks as Json)) {
    if (!Array.isArray(list)) continue;
    for (const entry of list) {
      const command = entry && typeof entry === 'object' ? (entry as Json)['command'] : undefined;
      if (ownCursorEvent(command) === event && !found.has(event)) found.set(event, (command as string).trim());
    }
  }
  return found;
}

function checkShape(file: unknown): SettingsResult {
  if (file === undefined) return { ok: true, value: {} };
  if (!file || typeof file !== 'object' || Array.isArray(file)) return { ok: false, error: 'the hooks file is not a JSON object' };
  const hooks = (file as Json)['hooks'];
  if (hooks === undefined) return { ok: true, value: file as Json };
  if (!hooks || typeof hooks !== 'object' || Array.isArray(hooks)) return { ok: false, error: '"hooks" is not an object' };
  for (const [event, list] of Object.entries(hooks as Json)) {
    if (!Array.isArray(list)) return { ok: false, error: `"hooks.${event}" is not an array` };
    for (const [index, entry] of list.entries()) {
      if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return { ok: false, error: `"hooks.${event}[${index}]" is not an object` };
    }
  }
  return { ok: true, value: file as Json };
}
