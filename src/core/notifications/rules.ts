/**
 * Who may do what with an in-app notification: only its recipient sees it, marks it read or opens
 * it; nobody else, whatever their role (not even a superuser: it is the recipient's own inbox).
 */
interface NotificationOwner {
  recipientId: number;
}

export const canSeeNotification = (user: { id: number } | null, notification: NotificationOwner): boolean => user !== null && user.id === notification.recipientId;

/** Marking read (one, or all of one's own) is the recipient's alone, as seeing is. */
export const canMarkNotificationRead = canSeeNotification;
