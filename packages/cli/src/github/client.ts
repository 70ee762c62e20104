import { runFailure, type GitHubConfig } from '@the-loop/core';
import { runProcess } from '../process/run-process.js';

// GitHub answers are small JSON documents; anything larger is not one.
const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/** `gh` with an argv list (never a shell), bounded in time and output; gh keeps its own login. */
export type GhCall = (args: readonly string[], timeoutMs: number) => Promise<string>;

export function ghCall(env: NodeJS.ProcessEnv, cwd: string): GhCall {
  return async (args, timeoutMs) => {
    const request = { command: 'gh', args, cwd, env, timeoutMs, maxOutputBytes: MAX_RESPONSE_BYTES };
    const result = await runProcess(request);
    const failure = runFailure(request, result);
    if (failure !== undefined) throw new Error(`gh ${args.slice(0, 2).join(' ')} failed: ${failure.split('\n')[0]}`);
    return result.stdout;
  };
}

export interface RestAnswer {
  readonly status: number;
  readonly ok: boolean;
  readonly text: string;
}

/** One REST request to `github.apiUrl`, authenticated with a token, bounded in time and size. */
export type RestCall = (method: string, path: string, options: { readonly body?: unknown; readonly timeoutMs: number }) => Promise<RestAnswer>;

/**
 * REST calls to `github.apiUrl` (GitHub Enterprise and tests point it elsewhere). A server that
 * is slow, answers without end or redirects elsewhere makes the call fail; it never hangs it.
 */
export function restCall(config: GitHubConfig, token: string): RestCall {
  const base = config.apiUrl.replace(/\/+$/, '');
  return async (method, path, { body, timeoutMs }) => {
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: {
          accept: 'application/vnd.github+json',
          authorization: `Bearer ${token}`,
          'x-github-api-version': '2022-11-28',
          'user-agent': 'the-loop',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        // The token must not follow a redirect to another host.
        redirect: 'error',
        signal,
      });
      return { status: response.status, ok: response.ok, text: await boundedText(response, MAX_RESPONSE_BYTES) };
    } catch (error) {
      // To a tenth of a second: a call given what was left of the deadline waited, say, 999 ms.
      if (signal.aborted) throw new Error(`${method} ${path} timed out after ${Number((timeoutMs / 1000).toFixed(1))} s`);
      const cause = (error as { cause?: { message?: string } }).cause?.message;
      throw new Error(`${method} ${path} failed: ${cause ?? (error as Error).message}`);
    }
  };
}

/** The token the REST port sends: GITHUB_TOKEN, else GH_TOKEN. */
export function restToken(env: NodeJS.ProcessEnv): string | undefined {
  return env['GITHUB_TOKEN'] || env['GH_TOKEN'] || undefined;
}

async function boundedText(response: Response, max: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw new Error(`the answer is larger than ${max / 1024 / 1024} MiB`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
