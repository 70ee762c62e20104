import { runFailure, type NotificationsConfig } from '@the-loop/core';
import { basename } from 'node:path';
import { runProcess } from '../process/run-process.js';

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
    const [command, ...args] = config.command;
    // The command comes from the repository's configuration: nothing it starts may outlive the delivery.
    const request = { command: command!, args, cwd, env, stdin: payload, timeoutMs, killEscapedDescendants: true };
    const failure = runFailure(request, await runProcess(request));
    const program = basename(command!);
    if (failure === undefined) done.push(`command ${program}`);
    else failed.push(`command ${program}: ${failure.slice(0, 200)}`);
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
