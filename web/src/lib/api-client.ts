/**
 * The one way the web app talks to the server: JSON (or, for images, bytes) over same-origin fetch,
 * the in-memory access token as bearer, one refresh-and-retry after a 401, and the errors of docs/api.md §1.3
 * as `ApiError`.
 */

import { MFA_REQUIRED, PATHS } from '@ra/shared';

let accessToken: string | null = null;
let refreshAccessToken: (() => Promise<boolean>) | null = null;

export function setAccessToken(token: string | null): void {
  accessToken = token;
}

/** The current access token, for clients that make their own requests (the upload client). */
export function getAccessToken(): string | null {
  return accessToken;
}

/** Asks the auth provider for a new access token; false when the session is gone. */
export function refreshAccessTokenNow(): Promise<boolean> {
  return refreshAccessToken ? refreshAccessToken() : Promise.resolve(false);
}

/** The auth provider registers how to refresh, so this module needs no React. */
export function setRefreshHandler(handler: (() => Promise<boolean>) | null): void {
  refreshAccessToken = handler;
}

function redirectToEnrolment(): void {
  if (window.location.pathname !== PATHS.twoFactor) {
    window.location.assign(`${PATHS.twoFactor}?required=1`);
  }
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The sentence to show for an error body: the first field error, else the rule message, else the error. */
export function messageOf(body: unknown, fallback = 'Something went wrong.'): string {
  if (body && typeof body === 'object') {
    const b = body as { errors?: { msg?: unknown }[]; msg?: unknown; error?: unknown };
    const first = b.errors?.[0]?.msg;
    if (typeof first === 'string') {
      return first;
    }
    if (typeof b.msg === 'string') {
      return b.msg;
    }
    if (typeof b.error === 'string') {
      return b.error;
    }
  }
  return fallback;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** Send the bearer token and retry once after refreshing it (default true). */
  auth?: boolean;
  /** The media type asked for (default `application/json`), e.g. `application/dicom+json`. */
  accept?: string;
  /** Further headers (a share link's access code). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /**
   * Finish the request even if the page goes away first, so its cookies are still stored: a
   * session renewal cut off by a reload would leave the browser holding a turned cookie.
   */
  keepalive?: boolean;
}

async function send(path: string, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = {
    ...options.headers,
    accept: options.accept ?? 'application/json',
  };
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
  }
  if (options.auth !== false && accessToken) {
    headers.authorization = `Bearer ${accessToken}`;
  }
  return fetch(path, {
    method: options.method ?? 'GET',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    credentials: 'same-origin',
    signal: options.signal,
    keepalive: options.keepalive,
  });
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) {
    return undefined;
  }
  const text = await response.text();
  if (!text) {
    return undefined;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

async function sendWithRefresh(
  path: string,
  options: RequestOptions & { headers?: Record<string, string> },
): Promise<Response> {
  const response = await send(path, options);
  if (response.status === 401 && options.auth !== false && refreshAccessToken) {
    if (await refreshAccessToken()) {
      return send(path, options);
    }
  }
  return response;
}

async function errorOf(response: Response): Promise<ApiError> {
  const body = await readBody(response);
  if (response.status === 403 && messageOf(body) === MFA_REQUIRED) {
    // The operator requires two-factor sign-in for staff: nothing else works until it is on.
    redirectToEnrolment();
  }
  return new ApiError(response.status, messageOf(body), body);
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = await sendWithRefresh(path, options);
  if (!response.ok) {
    throw await errorOf(response);
  }
  return (await readBody(response)) as T;
}

/**
 * A binary answer (a rendered image) as a Blob, sent and failing like `apiRequest`. Images that
 * need the bearer token cannot be an `<img src>`: show the Blob through an object URL.
 */
export async function apiBlob(path: string, options: RequestOptions = {}): Promise<Blob> {
  const response = await sendWithRefresh(path, options);
  if (!response.ok) {
    throw await errorOf(response);
  }
  return response.blob();
}

/**
 * The answer itself, for a body read as a stream (a download with progress), sent and failing
 * like `apiRequest`; `headers` are added (a Range to resume).
 */
export async function apiResponse(
  path: string,
  options: RequestOptions & { headers?: Record<string, string> } = {},
): Promise<Response> {
  const response = await sendWithRefresh(path, options);
  if (!response.ok) {
    throw await errorOf(response);
  }
  return response;
}
