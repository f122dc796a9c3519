import net from 'node:net';

/**
 * Which proxies' X-Forwarded-* headers are believed: `0` none, a number of hops, or the proxies'
 * addresses. Never "all": a client could then forge its IP past per-IP limits and into the audit log.
 */
export type TrustProxy = number | string[];

const MAX_HOPS = 10;
/** Names proxy-addr (behind Fastify's trustProxy) understands for whole address ranges. */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(entry: string): boolean {
  if (RANGE_NAMES.has(entry)) {
    return true;
  }
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = net.isIP(address);
  if (family === 0 || rest.length > 0) {
    return false;
  }
  if (prefix === undefined) {
    return true;
  }
  const bits = Number(prefix);
  return /^\d{1,3}$/.test(prefix) && bits <= (family === 4 ? 32 : 128);
}

/** Parses TRUST_PROXY; throws a message naming the accepted forms for anything else. */
export function parseTrustProxy(value: string): TrustProxy {
  const text = value.trim();
  if (text === '') {
    return 0;
  }
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > MAX_HOPS) {
      throw new Error(`at most ${MAX_HOPS} proxy hops are supported`);
    }
    return hops;
  }
  const entries = text.split(',').map((entry) => entry.trim());
  const invalid = entries.filter((entry) => !isAddressOrRange(entry));
  if (invalid.length > 0) {
    throw new Error(
      `must be 0 (no proxy), a number of proxy hops (1, 2…) or a comma-separated list of proxy IPs/CIDRs (10.0.0.0/8,127.0.0.1); "${invalid.join('", "')}" is none of these`,
    );
  }
  return entries;
}

/**
 * The `trustProxy` option for Fastify. A hop count becomes a function: Fastify 5 treats a bare
 * number as "trust nothing", while proxy-addr's function form trusts the first `hops` addresses
 * (the socket peer, then each X-Forwarded-For entry from the right).
 */
export function fastifyTrustProxy(
  trust: TrustProxy,
): false | string[] | ((address: string, hop: number) => boolean) {
  if (Array.isArray(trust)) {
    return trust;
  }
  return trust === 0 ? false : (_address, hop) => hop < trust;
}
