import { parseJson, parseJsonObject, runFailure, type GitHubConfig } from '@the-loop/core';
import { runProcess } from '../process/run-process.js';

/** The prefix of the labels the-loop owns; every other label on an issue is left alone. */
export const LOOP_LABEL_PREFIX = 'loop:';

/** How labels reach GitHub: the `gh` CLI or the REST API. */
export interface LabelPort {
  labels(issue: number): Promise<string[]>;
  /** Add `add` (when given) and remove each of `remove`, in one operation where the port allows. */
  update(issue: number, add: string | null, remove: readonly string[]): Promise<void>;
}

/** Make `label` the issue's only `loop:*` label. Returns what changed. */
export async function replaceLoopLabel(port: LabelPort, issue: number, label: string): Promise<string> {
  const current = await port.labels(issue);
  const remove = current.filter((name) => name.startsWith(LOOP_LABEL_PREFIX) && name !== label);
  const add = current.includes(label) ? null : label;
  if (add === null && remove.length === 0) return `#${issue} already has ${label}`;
  await port.update(issue, add, remove);
  return `#${issue}: ${[add ? `+${add}` : '', ...remove.map((r) => `-${r}`)].filter(Boolean).join(' ')}`;
}

/** Labels through `gh issue view/edit` (argv, never a shell; gh keeps its own authentication). */
export function ghLabelPort(config: GitHubConfig, env: NodeJS.ProcessEnv, cwd: string, timeoutMs = 60_000): LabelPort {
  const gh = async (args: string[]): Promise<string> => {
    const request = { command: 'gh', args, cwd, env, timeoutMs };
    const result = await runProcess(request);
    const failure = runFailure(request, result);
    if (failure !== undefined) throw new Error(`gh ${args.slice(0, 2).join(' ')} failed: ${failure}`);
    return result.stdout;
  };
  return {
    async labels(issue) {
      const parsed = parseJsonObject(await gh(['issue', 'view', String(issue), '--repo', config.repo, '--json', 'labels']), 'gh issue view');
      if (!parsed.ok) throw new Error(parsed.error);
      const labels = parsed.value['labels'];
      return (Array.isArray(labels) ? labels : []).map((l: { name?: unknown }) => String(l?.name));
    },
    async update(issue, add, remove) {
      const args = ['issue', 'edit', String(issue), '--repo', config.repo];
      if (add) args.push('--add-label', add);
      if (remove.length > 0) args.push('--remove-label', remove.join(','));
      await gh(args);
    },
  };
}

/** Labels through the REST API, with a token from GITHUB_TOKEN or GH_TOKEN. */
export function restLabelPort(config: GitHubConfig, token: string, timeoutMs = 30_000): LabelPort {
  const base = `${config.apiUrl.replace(/\/+$/, '')}/repos/${config.repo}/issues`;
  const call = async (method: string, path: string, body?: unknown): Promise<Response> => {
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
      signal: AbortSignal.timeout(timeoutMs),
    });
    // Removing a label that is already gone is the outcome we wanted.
    if (!response.ok && !(method === 'DELETE' && response.status === 404)) {
      throw new Error(`${method} ${path} answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
    }
    return response;
  };
  return {
    async labels(issue) {
      const response = await call('GET', `/${issue}/labels?per_page=100`);
      const list = parseJson(await response.text());
      if (!list.ok || !Array.isArray(list.value)) throw new Error(`GET /${issue}/labels answered something other than a JSON list`);
      return list.value.map((l: { name?: unknown }) => String(l?.name));
    },
    async update(issue, add, remove) {
      if (add) await call('POST', `/${issue}/labels`, { labels: [add] });
      for (const name of remove) await call('DELETE', `/${issue}/labels/${encodeURIComponent(name)}`);
    },
  };
}
