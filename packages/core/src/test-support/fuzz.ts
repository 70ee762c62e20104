/**
 * fast-check's parameters for a property run: `FUZZ_RUNS` runs (else `defaultRuns`) from the
 * seed `FUZZ_SEED`, to replay or vary a run, else from a random one (printed on a failure).
 */
export function fuzzRuns(defaultRuns: number): { numRuns: number; seed?: number } {
  const seed = process.env['FUZZ_SEED'];
  return { numRuns: Number(process.env['FUZZ_RUNS'] ?? defaultRuns), ...(seed ? { seed: Number(seed) } : {}) };
}
