import http from 'node:http';
import net from 'node:net';
import { Readable } from 'node:stream';
import type { TrustProxy } from '../src/lib/trust-proxy.js';

/**
 * `app.inject` over real HTTP: the same request shapes the tests give Fastify's light-my-request,
 * sent to a base URL (the HAProxy of test-app.ts's proxy mode), and an answer with the fields the
 * tests read. node:http rather than fetch: fetch would decompress bodies the compression tests
 * read as sent, and refuses some of the headers the hostile-input tests send.
 */
export interface InjectRequest {
  method?: string;
  url?: string;
  path?: string;
  headers?: Record<string, string | string[] | number | undefined>;
  payload?: unknown;
  body?: unknown;
  query?: string | Record<string, string | string[]>;
  cookies?: Record<string, string>;
  /** The client's address as the app should see it: sent as X-Forwarded-For, which the app must believe. */
  remoteAddress?: string;
  signal?: AbortSignal;
}

export interface InjectCookie {
  name: string;
  value: string;
  path?: string;
  domain?: string;
  expires?: Date;
  maxAge?: number;
  secure?: boolean;
  httpOnly?: boolean;
  sameSite?: string;
  partitioned?: boolean;
}

export interface InjectAnswer {
  statusCode: number;
  statusMessage: string;
  headers: http.IncomingHttpHeaders;
  rawPayload: Buffer;
  payload: string;
  body: string;
  trailers: Record<string, string>;
  json<T = unknown>(): T;
  cookies: InjectCookie[];
  stream(): Readable;
}

/** Where the URL goes as light-my-request resolves it: relative to http://localhost, query merged in. */
function pathOf(request: InjectRequest): { path: string; host: string | undefined } {
  const given = request.url ?? request.path ?? '/';
  const parsed = new URL(given.startsWith('//') ? `http://localhost${given}` : given, 'http://localhost');
  if (typeof request.query === 'string') {
    const extra = new URLSearchParams(request.query);
    for (const key of new Set(extra.keys())) {
      parsed.searchParams.delete(key);
      for (const value of extra.getAll(key)) {
        parsed.searchParams.append(key, value);
      }
    }
  } else if (request.query) {
    for (const [key, value] of Object.entries(request.query)) {
      parsed.searchParams.delete(key);
      for (const one of Array.isArray(value) ? value : [value]) {
        parsed.searchParams.append(key, one);
      }
    }
  }
  // An absolute URL names the host the client asked for; a path is asked of the proxy itself.
  const isAbsolute = /^[a-z][a-z0-9+.-]*:\/\//i.test(given);
  return { path: parsed.pathname + parsed.search, host: isAbsolute ? parsed.host : undefined };
}

/** Whether an app with `trust` believes the X-Forwarded-For of a proxy on loopback (HAProxy here). */
export function trustsLoopbackProxy(trust: TrustProxy): boolean {
  if (!Array.isArray(trust)) {
    return trust > 0;
  }
  const list = new net.BlockList();
  for (const entry of trust) {
    if (entry === 'loopback') {
      return true;
    }
    const [address = '', prefix] = entry.split('/');
    const family = net.isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (net.isIP(address) === 0) {
      continue;
    }
    if (prefix === undefined) {
      list.addAddress(address, family);
    } else {
      list.addSubnet(address, Number(prefix), family);
    }
  }
  return list.check('127.0.0.1', 'ipv4');
}

function parseSetCookie(line: string): InjectCookie {
  const [pair = '', ...attributes] = line.split(';');
  const equals = pair.indexOf('=');
  const name = (equals < 0 ? '' : pair.slice(0, equals)).trim();
  const raw = (equals < 0 ? pair : pair.slice(equals + 1)).trim();
  let value = raw;
  try {
    value = decodeURIComponent(raw);
  } catch {
    // Kept as sent, as set-cookie-parser (light-my-request's parser) does.
  }
  const cookie: InjectCookie = { name, value };
  for (const attribute of attributes) {
    const [key = '', ...rest] = attribute.split('=');
    const text = rest.join('=').trim();
    switch (key.trim().toLowerCase()) {
      case 'path':
        cookie.path = text;
        break;
      case 'domain':
        cookie.domain = text;
        break;
      case 'expires':
        cookie.expires = new Date(text);
        break;
      case 'max-age':
        cookie.maxAge = Number(text);
        break;
      case 'secure':
        cookie.secure = true;
        break;
      case 'httponly':
        cookie.httpOnly = true;
        break;
      case 'samesite':
        cookie.sameSite = text;
        break;
      case 'partitioned':
        cookie.partitioned = true;
        break;
    }
  }
  return cookie;
}

function answerOf(response: http.IncomingMessage, rawPayload: Buffer): InjectAnswer {
  const payload = rawPayload.toString();
  const setCookie = response.headers['set-cookie'] ?? [];
  return {
    statusCode: response.statusCode ?? 0,
    statusMessage: response.statusMessage ?? '',
    headers: response.headers,
    rawPayload,
    payload,
    body: payload,
    trailers: response.trailers as Record<string, string>,
    json: <T>() => JSON.parse(payload) as T,
    cookies: setCookie.map(parseSetCookie),
    stream: () => Readable.from([rawPayload]),
  };
}

/** The body as bytes, or a stream to pipe, and the headers light-my-request would add for it. */
function bodyOf(
  request: InjectRequest,
  headers: Record<string, string | string[]>,
): Buffer | NodeJS.ReadableStream | undefined {
  const payload = request.payload ?? request.body;
  if (payload === undefined || payload === null || payload === '') {
    return undefined;
  }
  if (typeof (payload as NodeJS.ReadableStream).pipe === 'function') {
    return payload as NodeJS.ReadableStream;
  }
  let bytes: Buffer;
  if (Buffer.isBuffer(payload)) {
    bytes = payload;
  } else if (typeof payload === 'string') {
    bytes = Buffer.from(payload);
  } else {
    bytes = Buffer.from(JSON.stringify(payload));
    headers['content-type'] ??= 'application/json';
  }
  headers['content-length'] ??= String(bytes.length);
  return bytes;
}

/**
 * A function for `app.inject`'s object form that sends the request to `base`. `trust` is the app's
 * TRUST_PROXY: a `remoteAddress` is passed on as the last X-Forwarded-For entry, which only an app
 * that believes the proxy reads (as it would be the client's address behind the real cluster's HAProxy).
 */
export function injectOverHttp(
  base: string,
  trust: TrustProxy,
  agent: http.Agent,
): (request: InjectRequest) => Promise<InjectAnswer> {
  const target = new URL(base);
  const isTrusting = trustsLoopbackProxy(trust);
  return (request) => {
    if (typeof request !== 'object' || request === null) {
      throw new Error('proxy mode implements only app.inject({ ... }); send the request as one object');
    }
    const { path, host } = pathOf(request);
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(request.headers ?? {})) {
      if (value !== undefined) {
        headers[name.toLowerCase()] = Array.isArray(value) ? value.map(String) : String(value);
      }
    }
    headers['user-agent'] ??= 'lightMyRequest';
    if (host) {
      headers.host ??= host;
    }
    if (request.cookies) {
      const pairs = Object.entries(request.cookies).map(
        ([name, value]) => `${name}=${encodeURIComponent(value)}`,
      );
      headers.cookie = [headers.cookie, ...pairs].filter(Boolean).join('; ');
    }
    if (request.remoteAddress) {
      if (!isTrusting) {
        throw new Error(
          `remoteAddress ${request.remoteAddress} cannot reach an app that does not believe the proxy (TRUST_PROXY)`,
        );
      }
      const forwarded = headers['x-forwarded-for'];
      headers['x-forwarded-for'] = [forwarded, request.remoteAddress].flat().filter(Boolean).join(', ');
    }
    const body = bodyOf(request, headers);
    return new Promise<InjectAnswer>((resolve, reject) => {
      const outgoing = http.request(
        {
          host: target.hostname,
          port: target.port,
          method: (request.method ?? 'GET').toUpperCase(),
          path,
          headers,
          agent,
          signal: request.signal,
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.once('error', reject);
          response.once('end', () => resolve(answerOf(response, Buffer.concat(chunks))));
        },
      );
      outgoing.once('error', reject);
      if (body === undefined) {
        outgoing.end();
      } else if (Buffer.isBuffer(body)) {
        outgoing.end(body);
      } else {
        body.once('error', (err) => outgoing.destroy(err));
        body.pipe(outgoing);
      }
    });
  };
}
