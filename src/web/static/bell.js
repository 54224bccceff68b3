/* global document, window, EventSource, fetch, setTimeout */
// The bell's live count (src/web/layout.tsx NotificationBell, docs/api.md "Live channel"). The stream
// starts where the count on the page was read (data-live-last); each `notifications` event (a new
// one, or one read in another tab) and each `reset` reads the count again from the API, so the badge
// never drifts from the database. Without JavaScript a reload shows the count.
(function () {
  'use strict';
  var bell = document.querySelector('[data-bell-stream]');
  if (!bell || !window.EventSource || !window.fetch) return;
  var last = bell.getAttribute('data-live-last');
  var source = new EventSource(bell.getAttribute('data-bell-stream') + (last ? '?lastEventId=' + encodeURIComponent(last) : ''));
  var timer = null;

  function show(unread, max) {
    var badge = bell.querySelector('[data-bell-badge]');
    var count = bell.querySelector('[data-bell-count]');
    if (!badge || !count) return;
    count.textContent = unread >= max ? String(max - 1) + '+' : String(unread);
    bell.setAttribute('data-unread', String(unread));
    document.documentElement.setAttribute('data-bell-unread', String(unread));
  }
  function refresh() {
    timer = null;
    fetch('/api/notifications/unread/', { credentials: 'same-origin', headers: { accept: 'application/json' } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (data) { if (data) show(data.unread, data.max); })
      .catch(function () { /* the next event tries again */ });
  }
  function schedule() { if (!timer) timer = setTimeout(refresh, 50); }

  source.addEventListener('open', function () { document.documentElement.setAttribute('data-bell-open', ''); });
  source.addEventListener('notifications', schedule);
  source.addEventListener('reset', schedule);
})();
