import { createHash } from './hash.js';
import { approvedContent, findingsKey, type Artifact, type Diagnostic } from '@the-loop/core';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** SHA-256 of bytes or text, hex: what approvals, verdict caches and finding digests are bound to. */
export function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

// Values read from bytes, by the SHA-256 of those bytes, or how to take it when first asked for.
const digests = new WeakMap<object, string | (() => string)>();

/**
 * Note that `value` is what was read from bytes whose SHA-256 is `digest`, and nothing else. A
 * function is called for the digest when it is first asked for: a run that never asks (one
 * without caches) then never loads `crypto`, a few milliseconds of its start-up.
 */
export function readFrom(value: object, digest: string | (() => string)): void {
  digests.set(value, digest);
}

/** The SHA-256 of the bytes `value` was read from, when that was noted (artifact sources read through the cache, the configuration). */
export function digestReadFrom(value: object): string | undefined {
  const digest = digests.get(value);
  if (typeof digest !== 'function') return digest;
  const taken = digest();
  digests.set(value, taken);
  return taken;
}

/**
 * The digest an approval of `artifact` is bound to, the same for `graph approve`, the gate and a
 * pull-request review's copy: SHA-256 of what core says an approval covers (for the execution
 * log, its content without the-loop's own bookkeeping), else of the bytes. `text` and `parsed`
 * are the bytes decoded and parsed, when the caller has them.
 */
export function approvalDigest(artifact: string, bytes: Uint8Array, text?: string, parsed?: Artifact): string {
  const decoded = text ?? utf8(bytes);
  // Bytes that are not UTF-8 are no log the-loop edits: the approval covers them as they are.
  const content = decoded === undefined ? undefined : approvedContent(artifact, decoded, parsed);
  return sha256(content ?? bytes);
}

function utf8(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** A digest of what is unmet, so the same findings twice running can be recognised. */
export function findingsDigest(findings: readonly Diagnostic[]): string {
  return sha256(findingsKey(findings));
}
