import type { Config } from '../../config.js';
import { ApiError } from '../../http/errors.js';
import { takeRateLimited } from '../../http/throttle.js';

/** Sign-ups per e-mail address per hour: a few retries, not a mail cannon aimed at one inbox. */
const SIGNUPS_PER_ADDRESS = 3;
const SIGNUP_WINDOW_SECONDS = 3600;

/** Runs the counting; the 429 to answer when a limit is used up, null to go ahead. */
async function refusal(count: () => Promise<void>): Promise<ApiError | null> {
  try {
    await count();
    return null;
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 429) return error;
    throw error;
  }
}

/**
 * Counts one sign-up attempt against the client IP (SIGNUP_LIMIT_PER_IP an hour) and the e-mail
 * address; returns the 429 to answer when either is used up, null to go ahead.
 */
export const takeSignupAttempt = (ctx: { config: Config }, ip: string, email: string): Promise<ApiError | null> =>
  refusal(async () => {
    await takeRateLimited(ctx, `signup-ip:${ip}`, ctx.config.signupLimitPerIp, SIGNUP_WINDOW_SECONDS);
    await takeRateLimited(ctx, `signup-email:${email.trim().toLowerCase()}`, SIGNUPS_PER_ADDRESS, SIGNUP_WINDOW_SECONDS);
  });

/** Counts one new guest (issue 34.4) against the client IP: as many an hour as sign-ups (SIGNUP_LIMIT_PER_IP), counted apart. */
export const takeGuestAttempt = (ctx: { config: Config }, ip: string): Promise<ApiError | null> =>
  refusal(() => takeRateLimited(ctx, `guest-ip:${ip}`, ctx.config.signupLimitPerIp, SIGNUP_WINDOW_SECONDS));
