import { hookCommand, hookCommandEvent, type SettingsResult } from '@the-loop/core';
import { CLAUDE_HOOK_EVENTS } from './hook-payload.js';

/** The launcher Claude Code runs: `$CLAUDE_PROJECT_DIR` keeps it right from any working directory. */
export const CLAUDE_DEFAULT_LAUNCHER = '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/the-loop';

// The repository an installed hook checks: the project whose settings file installed it, which
// Claude Code names in $CLAUDE_PROJECT_DIR; a payload's cwd cannot move it.
const CLAUDE_REPO_PIN = '"$CLAUDE_PROJECT_DIR"';

// Writes that land in an artifact; other tools cannot change a spec file.
const WRITE_TOOLS = 'Write|Edit|MultiEdit';
const HOOK_TIMEOUT_SECONDS = 60;

/** The settings file, relative to the project root. */
export const CLAUDE_SETTINGS = '.claude/settings.json';

/** The name installed commands pass as `--harness`. */
export const CLAUDE_NAME = 'claude';

type Json = Record<string, unknown>;

// Whether a command is one of ours (`<launcher> hook <Event> --harness claude`), and for which event.
function ownClaudeEvent(command: unknown): string | undefined {
  return hookCommandEvent(command, CLAUDE_NAME);
}

/**
 * Merge the-loop's hooks into `.claude/settings.json`'s value: every key and hook the user
 * has stays where it is, an entry of ours is updated in place, a missing one is appended.
 * Applying it to its own output gives the same value.
 */
export function installClaudeHooks(settings: unknown, launcher: string): SettingsResult {
  const checked = checkShape(settings);
  if (!checked.ok) return checked;
  const root = structuredClone(checked.value);
  const hooks = (root['hooks'] ??= {}) as Json;
  for (const { name: event } of CLAUDE_HOOK_EVENTS) {
    const wanted = { type: 'command', command: hookCommand(launcher, CLAUDE_NAME, event, CLAUDE_REPO_PIN), timeout: HOOK_TIMEOUT_SECONDS };
    const groups = ((hooks[event] ??= []) as Json[]);
    let placed = false;
    for (const group of groups) {
      const list = group['hooks'] as Json[];
      for (let i = 0; i < list.length; i += 1) {
        if (ownClaudeEvent(list[i]?.['command']) !== event) continue;
        if (placed) list.splice(i--, 1);
        else {
          list[i] = { ...list[i], ...wanted };
          placed = true;
        }
      }
    }
    hooks[event] = groups.filter((group) => (group['hooks'] as Json[]).length > 0);
    if (!placed) (hooks[event] as Json[]).push(event === 'PostToolUse' ? { matcher: WRITE_TOOLS, hooks: [wanted] } : { hooks: [wanted] });
  }
  return { ok: true, value: root };
}

/** Remove only the-loop's entries; groups and events left empty by that removal go too. */
export function uninstallClaudeHooks(settings: unknown): SettingsResult {
  const checked = checkShape(settings);
  if (!checked.ok) return checked;
  const root = structuredClone(checked.value);
  const hooks = root['hooks'] as Json | undefined;
  if (!hooks) return { ok: true, value: root };
  for (const [event, value] of Object.entries(hooks)) {
    const groups = value as Json[];
    let removed = false;
    const kept = groups
      .map((group) => {
        const list = group['hooks'] as Json[];
        const rest = list.filter((hook) => ownClaudeEvent(hook['command']) === undefined);
        if (rest.length !== list.length) removed = true;
        return rest.length === list.length ? group : { ...group, hooks: rest };
      })
      .filter((group) => (group['hooks'] as Json[]).length > 0);
    if (!removed) continue;
    if (kept.length > 0) hooks[event] = kept;
    else delete hooks[event];
  }
  if (Object.keys(hooks).length === 0) delete root['hooks'];
  return { ok: true, value: root };
}

/** The installed command for each event, as found in a settings value. */
export function installedClaudeCommands(settings: unknown): Map<string, string> {
  const found = new Map<string, string>();
  const hooks = settings && typeof settings === 'object' ? (settings as Json)['hooks'] : undefined;
  if (!hooks || typeof hooks !== 'object') return found;
  for (const [event, groups] of Object.entries(hooks as Json)) {
    if (!Array.isArray(groups)) continue;
    for (const group of groups) {
      const list = group && typeof group === 'object' ? (group as Json)['hooks'] : undefined;
      if (!Array.isArray(list)) continue;
      for (const hook of list) {
        const command = hook && typeof hook === 'object' ? (hook as Json)['command'] : undefined;
        if (ownClaudeEvent(command) === event && !found.has(event)) found.set(event, (command as string).trim());
      }
    }
  }
  return found;
}

// Only shapes Claude Code itself accepts are edited; anything else is the user's to fix.
function checkShape(settings: unknown): SettingsResult {
  if (settings === undefined) return { ok: true, value: {} };
  if (!settings || typeof settings !== 'object' || Array.isArray(settings)) return { ok: false, error: 'the settings file is not a JSON object' };
  const hooks = (settings as Json)['hooks'];
  if (hooks === undefined) return { ok: true, value: settings as Json };
  if (!hooks || typeof hooks !== 'object' || Array.isArray(hooks)) return { ok: false, error: '"hooks" is not an object' };
  for (const [event, groups] of Object.entries(hooks as Json)) {
    if (!Array.isArray(groups)) return { ok: false, error: `"hooks.${event}" is not an array` };
    for (const [index, group] of groups.entries()) {
      if (!group || typeof group !== 'object' || !Array.isArray((group as Json)['hooks'])) {
        return { ok: false, error: `"hooks.${event}[${index}]" has no "hooks" array` };
      }
    }
  }
  return { ok: true, value: settings as Json };
}
