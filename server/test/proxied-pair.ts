import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import { startHaproxy } from '../../cluster/lib/haproxy.js';
import type { Config } from '../src/config.js';
import { freePort } from './free-port.js';
import { injectOverHttp } from './http-inject.js';

/**
 * Proxy mode of the server's tests (TEST_THROUGH_PROXY=1, docs/operations.md §16): the test's app
 * and a second instance of it listen on loopback behind HAProxy, round robin as in the cluster
 * (cluster/lib/haproxy.ts), and the first app's `inject` and `listen` lead to the proxy.
 */
export interface ProxiedPair {
  base: string;
  stop(): Promise<void>;
}

/**
 * Settings every instance of a proxied pair gets, as cluster/lib/cluster.ts gives the real ones:
 * HAProxy on loopback is the hop whose X-Forwarded-For is believed, and rate limits count in one
 * Redis under a prefix of this test database's own.
 */
export function proxiedEnv(databaseUrl: string): Record<string, string> {
  const redisUrl = process.env.TEST_REDIS_URL;
  if (!redisUrl) {
    throw new Error(
      'TEST_THROUGH_PROXY=1 needs TEST_REDIS_URL: the two instances count rate limits together',
    );
  }
  return {
    TRUST_PROXY: '127.0.0.1',
    REDIS_URL: redisUrl,
    RATE_LIMIT_PREFIX: `ra:rl:${new URL(databaseUrl).pathname.slice(1)}:`,
  };
}

export async function putBehindProxy(
  first: FastifyInstance,
  second: FastifyInstance,
  config: Config,
): Promise<ProxiedPair> {
  const ports: number[] = [];
  for (const app of [first, second]) {
    await app.listen({ host: '127.0.0.1', port: 0 });
    ports.push((app.server.address() as { port: number }).port);
  }
  // No health checks: both instances run on this process's one event loop, which a test's own
  // synchronous work (building a 90 MB request, say) holds long enough to fail every check at once.
  // A closed instance is still skipped: HAProxy retries a refused connection on the other.
  const proxy = await startHaproxy(await freePort(), ports, { healthChecks: false });
  const agent = new http.Agent({ keepAlive: true });
  const inject = injectOverHttp(proxy.base, config.trustProxy, agent);
  // Tests call inject with light-my-request's object form; proxy mode answers that form only.
  first.inject = inject as unknown as FastifyInstance['inject'];
  // A test that listens itself wants an address to give a real client: the proxy's.
  first.listen = () => Promise.resolve(proxy.base);
  return {
    base: proxy.base,
    stop: async () => {
      agent.destroy();
      await proxy.stop();
    },
  };
}
