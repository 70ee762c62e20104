import { claudeAdapter } from '@the-loop/adapter-claude';
import { cursorAdapter } from '@the-loop/adapter-cursor';
import type { HarnessAdapter } from '@the-loop/core';
import { UsageError } from '../errors.js';

/**
 * The harnesses the CLI ships with: the one place they are named. `main` hands this list to
 * every command through `CommandEnv.adapters`; a test or another tool can hand in its own.
 */
export const BUILT_IN_ADAPTERS: readonly HarnessAdapter[] = [claudeAdapter, cursorAdapter];

/** The adapter `--harness NAME` names; a usage error lists the ones there are. */
export function harnessNamed(adapters: readonly HarnessAdapter[], name: string | undefined, usage: string): HarnessAdapter {
  const names = adapters.map((adapter) => adapter.name);
  if (name === undefined) throw new UsageError(`--harness ${names.join('|')} is required\n${usage}`);
  const adapter = adapters.find((candidate) => candidate.name === name);
  if (!adapter) throw new UsageError(`--harness must be one of ${names.join(', ')}; got "${name}"`);
  return adapter;
}
