/** The harness and model that wrote a work item, as its execution log records them. */
export interface Author {
  readonly harness: string;
  readonly model: string | undefined;
}

/**
 * Read `author: {harness, model}` from the execution log's front-matter. Undefined when
 * the log records no author, or records one that is not a mapping with a harness.
 */
export function authorFromFrontMatter(data: Readonly<Record<string, unknown>> | undefined): Author | undefined {
  const raw = data?.['author'];
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const { harness, model } = raw as Record<string, unknown>;
  if (typeof harness !== 'string' || harness.trim() === '') return undefined;
  return { harness: harness.trim(), model: typeof model === 'string' && model.trim() !== '' ? model.trim() : undefined };
}

/**
 * Whether a critic would be reviewing its own work: same harness and same model. An unset
 * model is the harness's default, so two unset models are the same model.
 */
export function isSameAuthor(critic: { harness?: string | undefined; model?: string | undefined }, author: Author): boolean {
  return critic.harness === author.harness && (critic.model ?? 'default') === (author.model ?? 'default');
}
