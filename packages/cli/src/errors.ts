/** A usage or configuration error: exit 2, nothing evaluated or spawned. */
export class UsageError extends Error {
  readonly exitCode = 2;
}
