import type { FastifyReply } from 'fastify';
import type { DownloadRequest, ZipAnswer } from './downloads.service.js';

/** The client's Range and If-Range, and its address for the audit log. */
export function downloadRequestOf(request: {
  headers: Record<string, string | string[] | undefined>;
  ip: string;
}): DownloadRequest {
  const header = (name: string) => {
    const value = request.headers[name];
    return typeof value === 'string' ? value : undefined;
  };
  return { range: header('range'), ifRange: header('if-range'), ip: request.ip };
}

/** Sends a ZIP answer: its status and headers, then the stream (nothing for a 416). */
export function sendZip(reply: FastifyReply, answer: ZipAnswer): FastifyReply {
  void reply.status(answer.status).headers(answer.headers);
  return answer.status === 416 ? reply.send() : reply.send(answer.body);
}
