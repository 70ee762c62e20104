import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { redactSecrets } from './redact.js';

const KEY = ['-----BEGIN OPENSSH PRIVATE KEY-----', 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW', '-----END OPENSSH PRIVATE KEY-----'].join('\n');

describe('redactSecrets', () => {
  it.each([
    ['a private key block', `before\n${KEY}\nafter`, 'before\n[REDACTED:private-key]\nafter'],
    ['a private key cut off by the output limit', '-----BEGIN RSA PRIVATE KEY-----\nMIIEow', '[REDACTED:private-key]'],
    ['a GitHub token', 'token=ghp_abcdefghijklmnopqrstuvwxyz0123456789 used', 'token=[REDACTED:github-token] used'],
    ['an AWS key id', 'id AKIAIOSFODNN7EXAMPLE', 'id [REDACTED:aws-access-key-id]'],
    ['an Anthropic key', 'key sk-ant-api03-abcdefghijklmnopqrstuvwxyz', 'key [REDACTED:anthropic-key]'],
    ['a bearer header', 'Authorization: Bearer abcdefghijklmnop0123456789', 'Authorization: Bearer [REDACTED:credential]'],
    ['a password in a URL', 'postgres://app:s3cr3t-pass@db:5432/x', 'postgres://app:[REDACTED:password]@db:5432/x'],
    ['a named secret', 'client_secret: hunter2hunter2', 'client_secret: [REDACTED:assignment]'],
    ['a camelCase name', 'apiKey="abcd1234efgh"', 'apiKey="[REDACTED:assignment]"'],
    ['a random env value', 'AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'AWS_SECRET_ACCESS_KEY=[REDACTED:assignment]'],
    ['a random value under any upper-case name', 'SESSION=Zx8q2LpW9vK3mN7rT1yB', 'SESSION=[REDACTED:assignment]'],
  ])('replaces %s', (_what, input, output) => {
    expect(redactSecrets(input).text).toBe(output);
  });

  it.each([
    ['test output', '✓ greets by name (3 ms)\n  Tests  2 passed (2)\nexpected: 1\nactual: 2'],
    ['a plain env value', 'NODE_ENV=production\nPATH=/usr/local/bin:/usr/bin'],
    ['an author line', 'author: Ann Example <ann@example.com>'],
    ['a variable reference and a mask', 'TOKEN=${GITHUB_TOKEN}\nPASSWORD=********'],
  ])('leaves %s alone', (_what, input) => {
    expect(redactSecrets(input)).toEqual({ text: input, count: 0 });
  });

  it('counts what it replaced, and redacting twice changes nothing more', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('ok ', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'SECRET=abc123def456', '\n', KEY, 'x=1 '), { maxLength: 12 }), (parts) => {
        const once = redactSecrets(parts.join(''));
        expect(redactSecrets(once.text)).toEqual({ text: once.text, count: 0 });
        expect(once.text).not.toMatch(/ghp_[a-z]|PRIVATE KEY-----\n/);
      }),
    );
  });
});
