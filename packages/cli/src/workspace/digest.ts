import { createHash } from 'node:crypto';
import { findingsKey, type Diagnostic } from '@the-loop/core';

/** SHA-256 of bytes or text, hex: what approvals, verdict caches and finding digests are bound to. */
export function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A digest of what is unmet, so the same findings twice running can be recognised. */
export function findingsDigest(findings: readonly Diagnostic[]): string {
  return sha256(findingsKey(findings));
}
