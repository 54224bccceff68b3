import type { FastifyHttpOptions } from 'fastify';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** How long clients may take, and how many connections one address may hold (finding F8; README's config table). */
export interface ConnectionLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** 0: no cap. */
  connectionsPerIp: number;
}

/**
 * Fastify's server options for these limits. Node checks the header and request timeouts of open
 * connections every `connectionsCheckingInterval` (default 30 s), so the interval follows the
 * header timeout; a client still sending its headers (slowloris) or its body after the timeout gets
 * a 408 and the connection is closed. An idle socket (nothing sent either way) is closed after the
 * request timeout.
 */
export function serverTimeouts(limits: ConnectionLimits): FastifyHttpOptions<Server> {
  return {
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionTimeout: limits.requestTimeoutMs,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(limits.headersTimeoutMs / 4))),
    },
  };
}

/**
 * Refuses connections over `max` per client address: the socket is destroyed as it opens. The
 * address is the socket's; behind a reverse proxy (TRUST_PROXY) every client shares the proxy's
 * address, so the cap is the proxy's job there and is not applied.
 */
export function capConnectionsPerIp(server: Server, max: number): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = (open.get(address) ?? 0) + 1;
    if (count > max) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}
