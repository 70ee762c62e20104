import { CURSOR_HOOK_EVENTS, type CursorHookEvent } from './hook-payload.js';

/** Cursor runs project hooks from the project root. */
export const CURSOR_DEFAULT_LAUNCHER = 'node_modules/.bin/the-loop';

/** Follow-ups Cursor may submit in a row: its own maximum; the-loop's no-progress cap usually ends the loop first. */
export const CURSOR_LOOP_LIMIT = 5;

const OURS = /(?:^|\s)hook\s+(\S+)\s+--harness\s+cursor$/;

type Json = Record<string, unknown>;
export type CursorHooksResult = { ok: true; value: Json } | { ok: false; error: string };

/** The command line installed for one event. */
export function cursorHookCommand(launcher: string, event: CursorHookEvent): string {
  return `${launcher} hook ${event} --harness cursor`;
}

/** Whether a command is one of ours, and for which event. */
export function ownCursorEvent(command: unknown): string | undefined {
  return typeof command === 'string' ? OURS.exec(command.trim())?.[1] : undefined;
}

/** Merge the-loop's hooks into `.cursor/hooks.json`'s value, keeping every entry the user has. Idempotent. */
export function installCursorHooks(file: unknown, launcher: string): CursorHooksResult {
  const checked = checkShape(file);
  if (!checked.ok) return checked;
  const root = structuredClone(checked.value);
  root['version'] ??= 1;
  const hooks = (root['hooks'] ??= {}) as Json;
  for (const event of CURSOR_HOOK_EVENTS) {
    const wanted: Json = { command: cursorHookCommand(launcher, event), ...(event === 'stop' ? { loop_limit: CURSOR_LOOP_LIMIT } : {}) };
    const list = (hooks[event] ??= []) as Json[];
    const at = list.findIndex((entry) => ownCursorEvent(entry['command']) === event);
    if (at >= 0) list[at] = { ...list[at], ...wanted };
    else list.push(wanted);
    hooks[event] = list.filter((entry, i) => i === (at >= 0 ? at : list.length - 1) || ownCursorEvent(entry['command']) !== event);
  }
  return { ok: true, value: root };
}

/** Remove only the-loop's entries; events left empty by that removal go too. */
export function uninstallCursorHooks(file: unknown): CursorHooksResult {
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

function checkShape(file: unknown): CursorHooksResult {
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
