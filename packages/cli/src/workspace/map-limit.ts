/** Map with at most `limit` promises in flight, keeping input order (bounded so 10,000 work items do not exhaust file handles). */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  await forEachInOrder(items, limit, fn, (result, index) => (results[index] = result));
  return results;
}

/**
 * {@link mapLimit} with each result handed to `take` in input order, as soon as it and every one
 * before it are there, and then let go: a report renders each item and keeps only its text, not
 * every result of the chunk until its end.
 */
export async function forEachInOrder<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>, take: (result: R, index: number) => void): Promise<void> {
  const waiting = new Map<number, R>();
  let next = 0;
  let taken = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next;
      next += 1;
      waiting.set(index, await fn(items[index] as T));
      for (; waiting.has(taken); taken += 1) {
        const result = waiting.get(taken) as R;
        waiting.delete(taken);
        take(result, taken);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
