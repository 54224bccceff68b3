import assert from 'node:assert/strict';
import { test } from 'node:test';
import { basicWorld, load } from '../../fixtures.js';
import { createTestApp } from '../../helpers.js';
import { Browser } from './client.js';

const signup = { username: 'newbie', email: 'newbie@example.org', password1: 'a-long-secret', password2: 'a-long-secret', terms_of_use: 'on' };

test('a trial install (no SMTP_URL): the "check your mail" screens say the mail is in the back-office, where the operator opens its link (en, de)', async () => {
  const { app, db } = await createTestApp();
  await load(db, basicWorld());
  const done = await new Browser(app).post('/accounts/signup/', signup);
  assert.equal(done.status, 200);
  assert.match(done.text, /We have sent an e-mail to you for verification/);
  assert.match(done.text, /This installation sends no e-mails yet \(no SMTP_URL is set\)\. The operator finds this e-mail with its link in the back-office under E-mails/);
  const german = await new Browser(app, { 'accept-language': 'de' }).get('/accounts/password/reset/done/');
  assert.match(german.text, /Diese Installation verschickt noch keine E-Mails \(SMTP_URL ist nicht gesetzt\)/);

  const operator = new Browser(app);
  assert.equal((await operator.login('admin', 'admin-password')).status, 302);
  const mails = await operator.get('/backoffice/mails/');
  assert.equal(mails.status, 200);
  assert.match(mails.text, /No SMTP_URL is set: e-mails are only recorded here\./);
  assert.match(mails.text, /newbie@example\.org/);
  assert.match(mails.text, /<a href="http:\/\/[^"]+\/accounts\/confirm-email\/[^"]+\/" rel="noopener noreferrer">/, 'the link can be opened or copied');

  // A new e-mail address waits for its confirmation link: the settings say where it is, too.
  const user = new Browser(app);
  assert.equal((await user.login('user', 'user-password')).status, 302);
  assert.equal((await user.post('/account/', { username: 'user', email: 'moved@example.org', current_password: 'user-password', language: 'en', bio: '' })).status, 302);
  const settings = await user.get('/account/');
  assert.match(settings.text, /We have sent a confirmation link to moved@example\.org\.[^]*This installation sends no e-mails yet \(no SMTP_URL is set\)/);
  assert.equal((await user.post('/account/', { username: 'user', email: 'moved@example.org', current_password: 'user-password', language: 'de', bio: '' })).status, 302);
  assert.match((await user.get('/account/')).text, /Diese Installation verschickt noch keine E-Mails/);
});

test('an install with SMTP_URL says nothing of the back-office on those screens', async () => {
  const { app } = await createTestApp({ smtpUrl: 'smtp://mail.example.org:587' });
  const page = await new Browser(app).get('/accounts/password/reset/done/');
  assert.equal(page.status, 200);
  assert.match(page.text, /We have sent you an e-mail/);
  assert.doesNotMatch(page.text, /SMTP_URL|back-office/);
});
