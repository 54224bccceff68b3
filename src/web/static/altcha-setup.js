/* global Worker */
// The ALTCHA widget's CSP-friendly build brings no workers: it solves SHA-256 challenges with the
// worker Allmende serves itself (src/http/challenge-routes.ts). Loaded after de.js, which creates
// the $altcha global, and before altcha.js, which starts the widgets.
globalThis.$altcha.algorithms.set('SHA-256', () => new Worker('/static/altcha/sha-worker.js'));
