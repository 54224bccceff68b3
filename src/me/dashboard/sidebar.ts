import type { DbOrTx } from '../../db/client.js';
import type { Sidebar } from './views.js';
import { canViewModerationDashboard } from '../../features/moderation/rules.js';
import { initiatorOrganisations, moderatesSomeProject } from './queries.js';
import type { TiledProject } from '../../core/projects/tiles.js';
import { followedOrganisations } from './rules.js';

/** What the dashboard's sidebar and tabs show for a user. */
export async function sidebarOf(db: DbOrTx, user: { id: number; isSuperuser: boolean }, followed: TiledProject[]): Promise<Sidebar> {
  return { initiatorOf: await initiatorOrganisations(db, user.id), organisations: followedOrganisations(followed), moderator: canViewModerationDashboard(user, await moderatesSomeProject(db, user)) };
}
