// Pages that update themselves through the live channel (src/http/live.ts, docs/api.md "Live channel").
// An element with data-live-stream names its EventSource; data-live-last is the event id the page was
// rendered at, so nothing between the render and the connection is lost (EventSource then sends
// Last-Event-ID itself on every reconnect). Like counts change in place; other events fetch the page
// again and swap its [data-live-region]. Forms marked data-live-form post in the background.
(function () {
  'use strict';
  var root = document.querySelector('[data-live-stream]');
  if (!root || !window.EventSource || !window.fetch) return;
  var url = root.getAttribute('data-live-stream');
  var last = root.getAttribute('data-live-last');
  var source = new EventSource(url + (last ? '?lastEventId=' + encodeURIComponent(last) : ''));
  var timer = null;
  var running = false;
  var again = false;

  function refresh() {
    timer = null;
    if (running) { again = true; return; }
    running = true;
    fetch(location.href, { credentials: 'same-origin', headers: { accept: 'text/html' } })
      .then(function (response) { return response.text(); })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, 'text/html').querySelector('[data-live-region]');
        var current = document.querySelector('[data-live-region]');
        if (fresh && current) {
          var focused = document.activeElement && document.activeElement.closest('li[id]');
          current.replaceWith(document.importNode(fresh, true));
          if (focused) { var same = document.getElementById(focused.id); if (same) { var button = same.querySelector('button'); if (button) button.focus(); } }
        }
        document.documentElement.setAttribute('data-live-updated', String(Date.now()));
      })
      .catch(function () { /* the next event tries again */ })
      .then(function () { running = false; if (again) { again = false; schedule(); } });
  }
  function schedule() { if (!timer) timer = setTimeout(refresh, 100); }

  source.addEventListener('likes', function (event) {
    var data = JSON.parse(event.data);
    document.querySelectorAll('[data-likes-for="' + data.id + '"]').forEach(function (el) { el.textContent = String(data.count); });
  });
  ['question', 'question_hidden', 'reset', 'comment', 'report', 'moderation'].forEach(function (name) {
    source.addEventListener(name, schedule);
  });

  document.addEventListener('submit', function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute('data-live-form')) return;
    event.preventDefault();
    var body = new URLSearchParams(new FormData(form));
    var token = body.get('csrfmiddlewaretoken') || '';
    fetch(form.action, { method: 'POST', body: body, credentials: 'same-origin', headers: { 'X-CSRFToken': token }, redirect: 'manual' })
      .then(schedule, function () { form.submit(); });
  });
})();
