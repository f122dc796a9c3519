/** A small JSON client for the bench, against the real server. */
export class Api {
  constructor(
    readonly base: string,
    private token = '',
  ) {}

  async signIn(email: string, password: string): Promise<string> {
    const body = await this.json<{ token: string }>('POST', '/api/auth/signin', { email, password });
    this.token = body.token;
    return this.token;
  }

  get authorization(): string {
    return `Bearer ${this.token}`;
  }

  async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.base}${path}`, {
      method,
      headers: {
        authorization: this.authorization,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) {
      throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    }
    return (await response.json()) as T;
  }

  /** Uploads bytes with tus in one PATCH and returns the upload URL. */
  async upload(body: Buffer | ReadableStream, size: number, purpose = 'image'): Promise<string> {
    const created = await fetch(`${this.base}/api/uploads`, {
      method: 'POST',
      headers: {
        authorization: this.authorization,
        'tus-resumable': '1.0.0',
        'upload-length': String(size),
        'upload-metadata': `purpose ${Buffer.from(purpose).toString('base64')}`,
      },
    });
    const location = created.headers.get('location');
    if (created.status !== 201 || !location) {
      throw new Error(`upload creation: ${created.status}`);
    }
    const patched = await fetch(`${this.base}${location}`, {
      method: 'PATCH',
      headers: {
        authorization: this.authorization,
        'tus-resumable': '1.0.0',
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      body,
      duplex: 'half',
    });
    if (patched.status !== 204) {
      throw new Error(`upload: ${patched.status} ${await patched.text()}`);
    }
    return location;
  }
}
