import { createHash as cryptoHash } from 'node:crypto';
import { nodeBinding } from '../process/node-binding.js';

/** A running digest, as `crypto.createHash` gives one: bytes or text (as UTF-8) in, hex out once. */
export interface Hash {
  update(data: Uint8Array | string): Hash;
  digest(encoding: 'hex'): string;
}

/** The hash class of Node's crypto binding: what `crypto.createHash` wraps. */
type NativeHash = new (
  algorithm: string,
  outputLength: undefined,
  cacheId: number,
  cache: object,
) => { update(data: Uint8Array | string, encoding: string): boolean; digest(encoding: string): string };

// Found on the first digest: the binding's class, or null to use `node:crypto`.
let native: NativeHash | null | undefined;
// The ids of the algorithms the binding has looked up, by name, which it fills in on a first use
// and takes on later ones (`crypto` keeps one of its own): a lookup is OpenSSL's fetch.
const looked: Record<string, number> = {};

/**
 * A SHA-256 or SHA-1 digest. On the Node versions whose binding was checked (20 and 22) it is
 * taken through the binding `crypto.createHash` is built on: loading `node:crypto` itself brings
 * some thirty modules (keys, ciphers, X.509, streams) and took 3 to 4 ms of a run that digests a
 * few files; the binding's OpenSSL takes 0.4 ms (decision 191). Elsewhere, and when the binding
 * is not there (Node 24 has none, `--permission` refuses it), `node:crypto`.
 */
export function createHash(algorithm: 'sha256' | 'sha1'): Hash {
  native ??= nativeHash();
  if (native === null) return cryptoHash(algorithm);
  const handle = new native(algorithm, undefined, looked[algorithm] ?? -1, looked);
  const hash: Hash = {
    update(data) {
      if (!handle.update(data, 'utf8')) throw new Error(`the ${algorithm} digest could not take more input`);
      return hash;
    },
    digest: (encoding) => handle.digest(encoding),
  };
  return hash;
}

function nativeHash(): NativeHash | null {
  // The class's arguments are Node's internals: only the versions whose `crypto` calls it this way use it.
  const Hash = nodeBinding('crypto', ['20', '22'])?.['Hash'];
  return typeof Hash === 'function' ? (Hash as NativeHash) : null;
}
