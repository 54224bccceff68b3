import type { PhaseDates } from '../../core/projects/rules.js';
import { activePhase } from '../../core/modules/phases.js';

/**
 * Whether an account is the one an invitation was sent to: its own address, confirmed. An address
 * typed into the settings but never confirmed, or never confirmed since signup, is nobody's yet.
 */
export const isInvitedAccount = (invite: { email: string }, account: { email: string; emailVerified: boolean }) =>
  account.emailVerified && account.email.toLowerCase() === invite.email.toLowerCase();

/**
 * How many addresses one invitation form may name, and how many an organisation may invite a day
 * (issue 21, finding 10: one post mailed 2,000 arbitrary addresses).
 */
export const INVITE_LIMITS = { perPost: 50, perOrganisationPerDay: 500 };

/** The invitation form's addresses are too many for one post. */
export const tooManyInvitations = (addresses: number) => addresses > INVITE_LIMITS.perPost;

/**
 * Unpublishing takes a project away from its participants: while one of its published modules is
 * in a running phase, the dashboard asks once more (issue 22, item 15).
 */
export const unpublishNeedsConfirmation = (modules: { isDraft: boolean; phases: PhaseDates[] }[], now: Date) =>
  modules.some((m) => !m.isDraft && activePhase(m.phases, now) !== null);
