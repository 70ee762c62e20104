import { parseJson, parseJsonObject, type GitHubConfig } from '@the-loop/core';
import type { GhCall, RestCall } from './client.js';

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

/** Labels through `gh issue view/edit`. */
export function ghLabelPort(config: GitHubConfig, gh: GhCall): LabelPort {
  const timeoutMs = config.timeoutSeconds * 1000;
  return {
    async labels(issue) {
      const parsed = parseJsonObject(await gh(['issue', 'view', String(issue), '--repo', config.repo, '--json', 'labels'], timeoutMs), 'gh issue view');
      if (!parsed.ok) throw new Error(parsed.error);
      const labels = parsed.value['labels'];
      return (Array.isArray(labels) ? labels : []).map((l: { name?: unknown }) => String(l?.name));
    },
    async update(issue, add, remove) {
      const args = ['issue', 'edit', String(issue), '--repo', config.repo];
      if (add) args.push('--add-label', add);
      if (remove.length > 0) args.push('--remove-label', remove.join(','));
      await gh(args, timeoutMs);
    },
  };
}

/** Labels through the REST API. */
export function restLabelPort(config: GitHubConfig, rest: RestCall): LabelPort {
  const base = `/repos/${config.repo}/issues`;
  const timeoutMs = config.timeoutSeconds * 1000;
  const call = async (method: string, path: string, body?: unknown): Promise<string> => {
    const answer = await rest(method, `${base}${path}`, { body, timeoutMs });
    // Removing a label that is already gone is the outcome we wanted.
    if (!answer.ok && !(method === 'DELETE' && answer.status === 404)) {
      throw new Error(`${method} ${path} answered ${answer.status}: ${answer.text.slice(0, 200)}`);
    }
    return answer.text;
  };
  return {
    async labels(issue) {
      const list = parseJson(await call('GET', `/${issue}/labels?per_page=100`));
      if (!list.ok || !Array.isArray(list.value)) throw new Error(`GET /${issue}/labels answered something other than a JSON list`);
      return list.value.map((l: { name?: unknown }) => String(l?.name));
    },
    async update(issue, add, remove) {
      if (add) await call('POST', `/${issue}/labels`, { labels: [add] });
      for (const name of remove) await call('DELETE', `/${issue}/labels/${encodeURIComponent(name)}`);
    },
  };
}
