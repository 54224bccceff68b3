/* global document, window, location, EventSource, DOMParser, setTimeout, fetch, FormData, URLSearchParams, HTMLFormElement */
// Pages that update themselves through the live channel (src/http/live.ts, docs/api.md "Live channel").
// An element with data-live-stream names its EventSource; data-live-last is the event id the page was
// rendered at, so nothing between the render and the connection is lost (EventSource then sends
// Last-Event-ID itself on every reconnect). Like counts change in place; other events fetch the page
// again and swap its [data-live-region], keeping what the user selected there. Forms marked
// data-live-form post in the background. Without JavaScript the forms post and a reload shows news.
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

  /** What the user chose inside the region (checkboxes, selects), to put back after the swap. */
  function choices(region) {
    var kept = { checked: [], values: {} };
    region.querySelectorAll('input[type=checkbox][id]').forEach(function (box) { if (box.checked) kept.checked.push(box.id); });
    region.querySelectorAll('select[id]').forEach(function (select) { kept.values[select.id] = select.value; });
    return kept;
  }
  function restore(kept) {
    kept.checked.forEach(function (id) { var box = document.getElementById(id); if (box) box.checked = true; });
    Object.keys(kept.values).forEach(function (id) { var select = document.getElementById(id); if (select) select.value = kept.values[id]; });
  }

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
          var kept = choices(current);
          var focused = document.activeElement && document.activeElement.id;
          current.replaceWith(document.importNode(fresh, true));
          restore(kept);
          if (focused) { var back = document.getElementById(focused); if (back) back.focus(); }
        }
        document.documentElement.setAttribute('data-live-updated', String(Date.now()));
      })
      .catch(function () { /* the next event tries again */ })
      .then(function () { running = false; if (again) { again = false; schedule(); } });
  }
  function schedule() { if (!timer) timer = setTimeout(refresh, 100); }

  // Tells that the stream is open (tests and styles can wait for it).
  source.addEventListener('open', function () { document.documentElement.setAttribute('data-live-open', ''); });
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
    fetch(form.action, { method: 'POST', body: body, credentials: 'same-origin', headers: { 'X-CSRFToken': body.get('csrfmiddlewaretoken') || '' }, redirect: 'manual' })
      .then(schedule, function () { form.submit(); });
  });
})();
