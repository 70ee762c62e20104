import { colorsFor } from '../format/colors.js';

/** The progress events of a run, in the order a run can emit them (docs/run.md lists their fields). */
export type RunEventName =
  | 'node.entered'
  | 'harness.invoked'
  | 'harness.exited'
  | 'gate.evaluated'
  | 'choice.decided'
  | 'review.round'
  | 'effect.failed'
  | 'node.parked'
  | 'node.escalated'
  | 'run.finished';

/** Where a run's progress goes: NDJSON for a program reading stderr, one line per step for a person at a terminal. */
export interface RunEvents {
  emit(event: RunEventName, node: string | null, fields?: Readonly<Record<string, unknown>>): void;
}

interface Context {
  readonly stream: NodeJS.WritableStream & { isTTY?: boolean };
  readonly env: NodeJS.ProcessEnv;
  readonly requestId: string;
  readonly workItem: string;
  readonly now: () => Date;
}

/**
 * One JSON object per line — `event`, `requestId`, `workItem`, `node`, `at`, then the event's
 * own fields — or, when stderr is a terminal, a line a person reads: node, attempt, elapsed.
 */
export function runEvents(context: Context): RunEvents {
  const started = context.now().getTime();
  if (context.stream.isTTY !== true) {
    return {
      emit(event, node, fields = {}) {
        const at = context.now().toISOString();
        context.stream.write(`${JSON.stringify({ event, requestId: context.requestId, workItem: context.workItem, node, at, ...fields })}\n`);
      },
    };
  }
  const c = colorsFor(context.stream, context.env);
  return {
    emit(event, node, fields = {}) {
      const seconds = Math.round((context.now().getTime() - started) / 1000);
      const elapsed = `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
      const attempt = typeof fields['attempt'] === 'number' ? ` · attempt ${fields['attempt']}` : '';
      const text = describe(event, fields);
      if (text === undefined) return;
      context.stream.write(`${c.dim(elapsed)} ${c.bold(context.workItem)}${node ? ` · ${node}` : ''}${attempt} · ${text}\n`);
    },
  };
}

function describe(event: RunEventName, f: Readonly<Record<string, unknown>>): string | undefined {
  switch (event) {
    case 'node.entered':
      return `entered (${String(f['actor'])})`;
    case 'harness.invoked':
      return `${String(f['harness'])} started (${String(f['purpose'])}${f['model'] ? `, model ${String(f['model'])}` : ''}${f['resume'] ? ', resumed' : ''})`;
    case 'harness.exited':
      return `${String(f['harness'])} ${f['failure'] ? `failed: ${String(f['failure'])}` : 'finished'} in ${String(f['durationSeconds'])} s`;
    case 'gate.evaluated':
      return `gate ${String(f['outcome'])}${typeof f['findings'] === 'number' && f['findings'] > 0 ? ` (${f['findings']} unmet)` : ''}`;
    case 'choice.decided':
      return `next: ${String(f['taken'])} (${String(f['via'])})`;
    case 'review.round':
      return `${String(f['type'])} round ${String(f['cycle'])} by ${String(f['reviewer'])}: ${String(f['outcome'])}`;
    case 'effect.failed':
      return `effect ${String(f['kind'])} failed: ${String(f['detail'])}`;
    case 'node.parked':
      return `parked: ${String(f['reason'])}`;
    case 'node.escalated':
      return `escalated: ${String(f['reason'])}`;
    case 'run.finished':
      return `run ${String(f['status'])}: ${String(f['reason'])}`;
  }
}
