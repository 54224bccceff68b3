import { Type } from 'typebox';
import { appAvatarUrls } from '../../core/users/avatars.js';

/** The reference's UserSerializer (`/api/users/`), with the pk the app's profile screen links by. */
export const PublicUser = Type.Object({
  pk: Type.Integer(),
  username: Type.String(),
  user_image: Type.Union([Type.String(), Type.Null()], { description: 'Absolute URL of the uploaded avatar, or null' }),
  user_image_fallback: Type.String({ description: 'Absolute URL of the PNG fallback avatar' }),
  is_self: Type.Boolean({ description: 'Whether this is the signed-in user' }),
});

export function serializePublicUser(user: { id: number; username: string; avatar: string | null }, viewerId: number, absolute: (path: string) => string) {
  return { pk: user.id, username: user.username, ...appAvatarUrls(user, absolute), is_self: user.id === viewerId };
}
