import type { AuthUser } from '../../http/auth.js';
import { appAvatarUrls } from '../../core/users/avatars.js';

interface AccountBody {
  pk: number;
  username: string;
  user_image: string | null;
  user_image_fallback: string;
  language: string;
}

/** The reference's AccountSerializer (plus language); `absolute` turns a path into an absolute URL. */
export function serializeAccount(user: AuthUser, absolute: (path: string) => string): AccountBody {
  return {
    pk: user.id,
    username: user.username,
    ...appAvatarUrls(user, absolute),
    language: user.language,
  };
}
