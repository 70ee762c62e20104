/** A usage or configuration error: exit 2, nothing evaluated or spawned. */
export class UsageError extends Error {
  readonly exitCode = 2;
}

/** Exit codes shared by every command. */
export const EXIT = { ok: 0, unmet: 1, usage: 2 } as const;
