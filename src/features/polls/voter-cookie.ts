import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The per-browser ballot of an unregistered voter: a signed cookie per poll that holds the ballot's
 * random token. Voting again from the same browser replaces that ballot instead of adding one
 * (the challenge stops scripts; the cookie stops the repeat button).
 */
const cookieName = (pollId: number) => `poll_voter_${pollId}`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

export function readVoterToken(request: FastifyRequest, pollId: number): string | null {
  const raw = request.cookies[cookieName(pollId)];
  if (!raw) return null;
  const unsigned = request.unsignCookie(raw);
  return unsigned.valid && unsigned.value && UUID.test(unsigned.value) ? unsigned.value : null;
}

export function writeVoterToken(reply: FastifyReply, request: FastifyRequest, pollId: number, token: string): void {
  reply.setCookie(cookieName(pollId), token, { path: '/', sameSite: 'lax', httpOnly: true, secure: request.protocol === 'https', signed: true, maxAge: ONE_YEAR_SECONDS });
}
