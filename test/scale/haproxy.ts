/**
 * The HAProxy configuration of the scale test (test/scale/scale.ts), the same that docs/operations.md
 * shows in "Several instances behind a load balancer" (the test checks that they agree).
 */
export function haproxyConfig(listen: string, servers: { name: string; address: string }[], statsSocket: string): string {
  return `global
    maxconn 4096
    stats socket ${statsSocket} mode 600 level admin

defaults
    mode http
    option forwardfor
    # Connection failures (an instance just died) are retried on another instance; a request
    # the dead instance had already received is not (it may have been written).
    retries 2
    option redispatch 1
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    timeout http-keep-alive 10s
    # Live streams (Server-Sent Events) send a heartbeat every 15 s: client and server timeouts above
    # that keep them open; HAProxy passes the events through unbuffered.
    timeout tunnel 1h

frontend allmende
    bind ${listen}
    default_backend instances

backend instances
    balance roundrobin
    option httpchk
    http-check send meth GET uri /healthz
    http-check expect status 200
    default-server inter 1s fall 2 rise 2
${servers.map((s) => `    server ${s.name} ${s.address} check`).join('\n')}
`;
}

/** The addresses of the example in docs/operations.md. */
export const DOCS_EXAMPLE = {
  listen: ':80',
  servers: [1, 2, 3].map((n) => ({ name: `allmende${n}`, address: `10.0.0.1${n}:8004` })),
  statsSocket: '/run/haproxy/admin.sock',
};

/** The ```haproxy block of docs/operations.md (null: none). */
export function docsConfig(markdown: string): string | null {
  const match = /```haproxy\n([\s\S]*?)```/.exec(markdown);
  return match ? match[1] : null;
}
