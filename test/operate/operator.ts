import assert from 'node:assert/strict';
import { basicWorld, load } from '../fixtures.js';
import { createTestApp } from '../helpers.js';
import { Browser } from '../me/accounts/client.js';

/** The basic world with its operator (`admin`) signed in, for the back-office's pages. */
export async function operatorWorld() {
  const t = await createTestApp();
  await load(t.db, basicWorld());
  const admin = new Browser(t.app);
  assert.equal((await admin.login('admin', 'admin-password')).status, 302);
  return { ...t, admin };
}
