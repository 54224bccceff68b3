import type { DbOrTx } from '../../db/client.js';
import type { Sidebar } from './pages.js';
import { type FollowedProject, initiatorOrganisations, isProjectModerator } from './queries.js';
import { followedOrganisations } from './rules.js';

/** What the dashboard's sidebar and tabs show for a user. */
export async function sidebarOf(db: DbOrTx, userId: number, followed: FollowedProject[]): Promise<Sidebar> {
  return { initiatorOf: await initiatorOrganisations(db, userId), organisations: followedOrganisations(followed), moderator: await isProjectModerator(db, userId) };
}
