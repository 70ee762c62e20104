import { parseRuntimeConfig, type RuntimeConfig } from '@the-loop/core';
import { configurationError } from '../errors.js';
import type { Repo } from './repo.js';

const cache = new WeakMap<Repo, RuntimeConfig>();

/** `github`, `notifications` and `approvals` of the repository's configuration; a broken section is exit 2 with its lines. */
export function loadRuntimeConfig(repo: Repo): RuntimeConfig {
  let config = cache.get(repo);
  if (!config) {
    const result = parseRuntimeConfig(repo.config.source);
    if (!result.ok) throw configurationError('the configuration is invalid', result.issues);
    config = result.config;
    cache.set(repo, config);
  }
  return config;
}
