// Node 20 reads and parses the whole NODE_EXTRA_CA_CERTS bundle at every start, whether or not the
// process opens a TLS connection: tens of milliseconds for each of the hundreds of Node processes
// the tests start, and the same time added to both sides of every ratio the bench measures. None
// of them opens one (decisions 188 and 189).

/** `env` without NODE_EXTRA_CA_CERTS, for Node processes that open no TLS connection. */
export function withoutExtraCertificates(env) {
  const { NODE_EXTRA_CA_CERTS: _certificates, ...rest } = env;
  return rest;
}
