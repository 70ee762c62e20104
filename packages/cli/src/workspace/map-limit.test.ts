import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { forEachInOrder, mapLimit } from './map-limit.js';

// Each item settles after its own number of turns of the event loop's microtask queue, so items
// finish out of order, as reads and cache writes do.
const settleAfter = async (turns: number): Promise<number> => {
  for (let i = 0; i < turns; i += 1) await Promise.resolve();
  return turns;
};

describe('forEachInOrder', () => {
  it('hands every result over once, in input order, with never more than the limit in flight', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(20), { maxLength: 40 }), fc.integer({ min: 1, max: 8 }), async (turns, limit) => {
        const taken: [number, number][] = [];
        let inFlight = 0;
        let most = 0;
        await forEachInOrder(
          turns,
          limit,
          async (n) => {
            most = Math.max(most, (inFlight += 1));
            const result = await settleAfter(n);
            inFlight -= 1;
            return result;
          },
          (result, index) => taken.push([index, result]),
        );
        expect(taken).toEqual(turns.map((n, index) => [index, n]));
        expect(most).toBeLessThanOrEqual(limit);
      }),
    );
  });

  it('hands a result over as soon as every one before it is there, not at the end', async () => {
    const events: string[] = [];
    await forEachInOrder([0, 10, 20], 3, async (n) => {
      const result = await settleAfter(n);
      events.push(`settled ${n}`);
      return result;
    }, (result) => events.push(`taken ${result}`));
    expect(events).toEqual(['settled 0', 'taken 0', 'settled 10', 'taken 10', 'settled 20', 'taken 20']);
  });

  it('fails as its first failing item does', async () => {
    await expect(forEachInOrder([1, 2, 3], 2, async (n) => { if (n === 2) throw new Error('item 2'); return n; }, () => undefined)).rejects.toThrow('item 2');
  });

  it('mapLimit keeps every result, in input order', async () => {
    expect(await mapLimit([4, 0, 2, 1], 3, settleAfter)).toEqual([4, 0, 2, 1]);
  });
});
