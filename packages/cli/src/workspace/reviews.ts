import { parseReviewsConfig, type ReviewsConfig } from '@the-loop/core';
import { configurationError } from '../errors.js';
import type { Repo } from './repo.js';

/** The repository's `reviews` settings; a broken section stops the command (exit 2). */
export function loadReviews(repo: Repo): ReviewsConfig {
  const result = parseReviewsConfig(repo.config.source);
  if (!result.ok) throw configurationError('the reviews configuration is invalid', result.issues);
  return result.reviews;
}
