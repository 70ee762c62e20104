import type { NotificationsConfig } from '@the-loop/core';
import { basename } from 'node:path';
import { runArgv } from '../io/run-argv.js';

/** What a notification command (on stdin) or webhook (as the POST body) receives. */
export interface Notification {
  readonly schemaVersion: 1;
  readonly event: string;
  readonly workItem: string;
  readonly node: string;
  readonly roles: readonly string[];
  readonly recipients: readonly string[];
  readonly message: string;
}

/** Deliver a notification through every configured channel; throws with each channel's failure. */
export async function deliver(config: NotificationsConfig, notification: Notification, env: NodeJS.ProcessEnv, cwd: string): Promise<string> {
  const payload = JSON.stringify(notification);
  const done: string[] = [];
  const failed: string[] = [];
  const timeoutMs = config.timeoutSeconds * 1000;
  if (config.command) {
    const result = await runArgv(config.command, { input: payload, timeoutMs, env, cwd });
    const program = basename(config.command[0]!);
    if (result.code === 0) done.push(`command ${program}`);
    else failed.push(`command ${program}: ${result.error ?? (result.stderr.trim().slice(0, 200) || `exit ${result.code}`)}`);
  }
  if (config.webhook) {
    try {
      const response = await fetch(config.webhook, { method: 'POST', headers: { 'content-type': 'application/json' }, body: payload, signal: AbortSignal.timeout(timeoutMs) });
      if (response.ok) done.push('webhook');
      else failed.push(`webhook answered ${response.status}`);
    } catch (error) {
      failed.push(`webhook: ${(error as Error).message}`);
    }
  }
  if (failed.length > 0) throw new Error(failed.join('; '));
  return `sent via ${done.join(' and ')}`;
}
