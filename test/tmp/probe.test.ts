import { test } from 'node:test';
import { basicWorld, load } from '../fixtures.js';
import { createTestApp } from '../helpers.js';
import { Browser } from '../accounts/client.js';

test('probe', async () => {
  const t = await createTestApp();
  const w = basicWorld();
  w.modules = w.modules!.map((m) => ({ ...m, slug: 'ideas-module' }));
  w.ideas = [{ id: 1, module: 1, creator: 5, name: 'Idea', description: 'x', category: 1, created: '2024-03-05T14:07:00Z' }];
  w.comments = [{ id: 1, creator: 6, target: { type: 'idea', id: 1 }, comment: 'Nice' }];
  await load(t.db, w);
  const log: string[] = [];
  const logger = (t.db as any).session.logger;
  const orig = logger.logQuery.bind(logger);
  logger.logQuery = (q: string, p: unknown) => { log.push(q.slice(0, 200).replace(/\s+/g, ' ')); return orig(q, p); };
  const user = new Browser(t.app);
  await user.login('user', 'user-password');
  for (const [who, b] of [['anon', new Browser(t.app)], ['user', user]] as const) {
    for (const url of ['/', '/org/projects/project/', '/org/projects/module/ideas-module/', '/org/ideas/2024-00001/']) {
      await b.get(url);
      const before = t.database.stats.queries; log.length = 0;
      const r = await b.get(url);
      console.log(who, url, r.status, t.database.stats.queries - before);
      for (const l of log) console.log('   ', l);
    }
  }
});
