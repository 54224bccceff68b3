import { DELETED_USERNAME } from '../../core/users/deletion.js';

/** The longest user search of the back-office. */
export const USER_SEARCH_MAX_LENGTH = 200;

/** An account's page in the back-office. */
export const userCarePath = (id: number) => `/backoffice/users/${id}/`;

/** The account the content of deleted accounts belongs to (core/users/deletion.ts): no operator action touches it. */
export const isDeletedPlaceholder = (user: { username: string }) => user.username === DELETED_USERNAME;

interface CareTarget {
  id: number;
  username: string;
  isActive: boolean;
  isSuperuser: boolean;
  emailVerified: boolean;
}

/**
 * What an operator may do to an account (issue 22, item 7): nothing to the `[deleted]`
 * placeholder, nothing to her own account that would lock her out (delete, deactivate, revoke her
 * superuser status), and never revoke the last active superuser.
 */
export function accountCare(operatorId: number, target: CareTarget, activeSuperusers: number) {
  const changeable = !isDeletedPlaceholder(target);
  const other = changeable && operatorId !== target.id;
  return {
    delete: other && keepsASuperuser(target, activeSuperusers),
    deactivate: other && target.isActive && keepsASuperuser(target, activeSuperusers),
    activate: changeable && !target.isActive,
    staff: changeable,
    correctEmail: changeable,
    resendConfirmation: changeable && target.isActive && !target.emailVerified,
    grantSuperuser: changeable && target.isActive && !target.isSuperuser && target.emailVerified,
    /** "Make superuser" is shown disabled, saying why: the account has not confirmed its address (issue 37, item 12). */
    grantSuperuserAfterConfirmation: changeable && target.isActive && !target.isSuperuser && !target.emailVerified,
    revokeSuperuser: other && target.isSuperuser && activeSuperusers > 1,
  };
}

/** Whether taking the target away (delete, deactivate) leaves an active superuser. */
const keepsASuperuser = (target: CareTarget, activeSuperusers: number) => !(target.isSuperuser && target.isActive) || activeSuperusers > 1;

/**
 * The same rule decided inside the changing transaction, over the active superusers' rows as
 * locked there (services.lockActiveSuperusers, issue 36.4): the operator still is one, and one
 * other than the target stays. Two superusers taking each other's status at once: the second waits
 * for the first and is then refused.
 */
export const superusersKept = (operatorId: number, targetId: number, lockedSuperuserIds: number[]) =>
  lockedSuperuserIds.includes(operatorId) && lockedSuperuserIds.some((id) => id !== targetId);

export type AccountCare = ReturnType<typeof accountCare>;

/**
 * Why an account cannot be appointed initiator (issue 37, item 12), or null: an unconfirmed
 * address may belong to someone else, and an initiator's mails and powers go to it.
 */
export const initiatorRefusal = (target: { emailVerified: boolean }): string | null =>
  target.emailVerified ? null : 'This account has not confirmed its e-mail address yet; it can be appointed once it has (its page in the back-office sends the confirmation e-mail again).';

/** Why "Make superuser" is disabled for an unconfirmed account. */
export const UNCONFIRMED_SUPERUSER = 'Only an account with a confirmed e-mail address can be made superuser.';
