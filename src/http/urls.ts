import type { FastifyRequest } from 'fastify';

/** The origin for absolute URLs: BASE_URL when configured, otherwise the request's own. */
export function origin(request: FastifyRequest, baseUrl: string | null): string {
  if (baseUrl) return baseUrl;
  return `${request.protocol}://${request.host}`;
}

export function absoluteUrl(request: FastifyRequest, baseUrl: string | null, path: string): string {
  return /^https?:\/\//.test(path) ? path : `${origin(request, baseUrl)}${path.startsWith('/') ? '' : '/'}${path}`;
}
