import type { ConnectionLimits } from '../config.js';
import type { FastifyHttpOptions } from 'fastify';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';


/**
 * Fastify's server options for these limits. Node checks the header and request timeouts of open
 * connections every `connectionsCheckingInterval` (default 30 s), so the interval follows the
 * header timeout; a client still sending its headers (slowloris) or its body after the timeout gets
 * a 408 and the connection is closed. An idle socket (nothing sent either way) is closed after the
 * request timeout.
 */
export function serverTimeouts(limits: ConnectionLimits): FastifyHttpOptions<Server> {
  return {
    clientErrorHandler,
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

const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'The request was not sent in time.'],
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'The request headers are too large.'],
};

/**
 * What a client gets when Node cannot even parse its request or it came too slowly: the API's
 * error shape (`{"detail": …}`), and the connection closed. A socket already gone is just closed.
 */
function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, detail] = CLIENT_ERRORS[error.code ?? ''] ?? [400, 'Bad Request', 'The request could not be read.'];
  const body = JSON.stringify({ detail });
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
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
