/** What a check printed, with everything that looks like a secret replaced. */
export interface Redacted {
  readonly text: string;
  /** How many secrets were replaced. */
  readonly count: number;
}

// Private keys, whole blocks; a block cut off by the output limit is redacted to the end.
const PRIVATE_KEY = /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----[\s\S]*?(?:-----END \1PRIVATE KEY\2-----|$)/g;

// Tokens recognisable by their prefix, most specific first.
const TOKENS: readonly (readonly [string, RegExp])[] = [
  ['github-token', /\b(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{22,255})/g],
  ['gitlab-token', /\bglpat-[A-Za-z0-9_-]{20,}/g],
  ['slack-token', /\bxox[abposr]-[A-Za-z0-9-]{10,}/g],
  ['aws-access-key-id', /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/g],
  ['anthropic-key', /\bsk-ant-[A-Za-z0-9_-]{20,}/g],
  ['openai-key', /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g],
  ['stripe-key', /\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}/g],
  ['google-api-key', /\bAIza[0-9A-Za-z_-]{35}/g],
  ['npm-token', /\bnpm_[A-Za-z0-9]{36}/g],
  ['jwt', /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g],
];

// `Authorization: Bearer …`, `token …`; and the password in `scheme://user:password@host`.
const BEARER = /\b(Bearer|Basic|token)(\s+)([A-Za-z0-9._~+/-]{16,}=*)/gi;
const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)([^\s@/]+)(@)/gi;

// `NAME=value` / `name: value`. A name that says it holds a secret is redacted whatever the
// value; any UPPER_CASE variable whose value is long and random-looking is too.
const ASSIGNMENT = /\b([A-Za-z_][A-Za-z0-9_.-]*)([ \t]*[=:][ \t]*)(["']?)([^\s"'`]{8,})\3/g;
const SECRET_NAME = /(?:^|[_.-])(?:secret|token|passw(?:or)?d|passwd|pwd|api[-_]?key|access[-_]?key|private[-_]?key|credentials?|auth)(?:$|[_.-])/i;
const ENV_NAME = /^[A-Z][A-Z0-9_]*$/;
const MIN_RANDOM_LENGTH = 16;
const MIN_ENTROPY_BITS = 3.5;

/** Replace secrets in a check's output with `[REDACTED:<kind>]`, before it is digested or written. */
export function redactSecrets(input: string): Redacted {
  let count = 0;
  const mark = (kind: string) => {
    count += 1;
    return `[REDACTED:${kind}]`;
  };
  let text = input.replace(PRIVATE_KEY, () => mark('private-key'));
  for (const [kind, pattern] of TOKENS) text = text.replace(pattern, () => mark(kind));
  text = text.replace(BEARER, (_all, scheme: string, space: string) => `${scheme}${space}${mark('credential')}`);
  text = text.replace(URL_PASSWORD, (_all, before: string, _password: string, at: string) => `${before}${mark('password')}${at}`);
  text = text.replace(ASSIGNMENT, (all, name: string, sign: string, quote: string, value: string) => {
    if (value.startsWith('[REDACTED:') || /^[*xX.•]+$/.test(value) || /^\$\{?[A-Za-z_]/.test(value)) return all;
    const secret = SECRET_NAME.test(name.replace(/([a-z0-9])([A-Z])/g, '$1_$2')) || (ENV_NAME.test(name) && looksRandom(value));
    return secret ? `${name}${sign}${quote}${mark('assignment')}${quote}` : all;
  });
  return { text, count };
}

function looksRandom(value: string): boolean {
  if (value.length < MIN_RANDOM_LENGTH || !/[0-9]/.test(value) || !/[A-Za-z]/.test(value)) return false;
  const counts = new Map<string, number>();
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / value.length) * Math.log2(n / value.length);
  return bits >= MIN_ENTROPY_BITS;
}
