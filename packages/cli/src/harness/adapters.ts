import { claudeAdapter } from '@the-loop/adapter-claude';
import { cursorAdapter } from '@the-loop/adapter-cursor';
import type { HarnessAdapter } from '@the-loop/core';

/** The harnesses the CLI knows, handed explicitly to whatever needs them. */
export const BUILT_IN_ADAPTERS: readonly HarnessAdapter[] = [claudeAdapter, cursorAdapter];
