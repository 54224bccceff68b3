import type { FastifyRequest } from 'fastify';

/** Paths that carry secrets in their segments (user/session service tokens). */
const SECRET_PATH = /^(\/session\/)[^/?]+/;

/** The URL as it may be logged: no query string (it may carry tokens), no session tokens in paths. */
function loggableUrl(url: string): string {
  const path = url.split('?')[0];
  return path.replace(SECRET_PATH, '$1[redacted]');
}

/** Structured request logs that never contain passwords, tokens or cookies. */
export function logOptions(level: string) {
  return {
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-thentos-password"]', 'req.headers["x-thentos-session"]', 'res.headers["set-cookie"]'],
      censor: '[redacted]',
    },
    serializers: {
      req(request: FastifyRequest) {
        return { method: request.method, url: loggableUrl(request.url), remoteAddress: request.ip };
      },
    },
  };
}
