/**
 * fast-check's parameters for a property run, from the test process's environment: `FUZZ_RUNS`
 * runs (else `defaultRuns`) from the seed `FUZZ_SEED`, to replay or vary a run, else from a
 * random one (printed on a failure).
 */
export function fuzzRuns(env: Readonly<Record<string, string | undefined>>, defaultRuns: number): { numRuns: number; seed?: number } {
  const seed = env['FUZZ_SEED'];
  return { numRuns: Number(env['FUZZ_RUNS'] ?? defaultRuns), ...(seed ? { seed: Number(seed) } : {}) };
}
