/* global document, window, location, EventSource, DOMParser, setTimeout, fetch, FormData, URLSearchParams, HTMLFormElement */
// Pages that update themselves through the live channel (src/http/live.ts, docs/api.md "Live channel").
// An element with data-live-stream names its EventSource; data-live-last is the event id the page was
// rendered at, so nothing between the render and the connection is lost (EventSource then sends
// Last-Event-ID itself on every reconnect). Like counts change in place. A question event on an
// event page's open questions ([data-live-questions]: where a question's fragment is) fetches only
// that question with the headings' counts and swaps them in by id (a new question goes on top of the
// first page, [data-live-new]; one no longer open leaves); other events, and what a fragment cannot
// place, fetch the page again and swap its [data-live-region], keeping what the user selected there.
// Forms marked data-live-form post in the background. Without JavaScript the forms post and a reload
// shows news.
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

  var list = document.querySelector('[data-live-questions]');
  var HEADINGS = ['questions-heading', 'answered-heading'];

  /** Swaps in one question and the headings' counts from its fragment; the whole page when the fragment does not fit. */
  function refreshQuestion(id) {
    if (!list || !id) { schedule(); return; }
    fetch(list.getAttribute('data-live-questions') + encodeURIComponent(id) + '/', { credentials: 'same-origin', headers: { accept: 'text/html' } })
      .then(function (response) { if (!response.ok) throw new Error(String(response.status)); return response.text(); })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, 'text/html');
        var fits = true;
        HEADINGS.forEach(function (heading) {
          var next = fresh.getElementById(heading);
          var current = document.getElementById(heading);
          if (next && current) current.replaceWith(document.importNode(next, true));
          else if (next || current) fits = false;
        });
        var item = fresh.getElementById('question-' + id);
        var current = document.getElementById('question-' + id);
        if (item && current) {
          var buttons = Array.prototype.slice.call(current.querySelectorAll('button'));
          var focused = buttons.indexOf(document.activeElement);
          var placed = document.importNode(item, true);
          current.replaceWith(placed);
          if (focused >= 0 && placed.querySelectorAll('button')[focused]) placed.querySelectorAll('button')[focused].focus();
        } else if (item && list.hasAttribute('data-live-new')) list.insertBefore(document.importNode(item, true), list.firstChild);
        else if (current) current.remove();
        if (!fits) schedule();
        else document.documentElement.setAttribute('data-live-updated', String(Date.now()));
      })
      .catch(schedule);
  }
  function questionEvent(event) { refreshQuestion(JSON.parse(event.data).id); }

  // Tells that the stream is open (tests and styles can wait for it).
  source.addEventListener('open', function () { document.documentElement.setAttribute('data-live-open', ''); });
  source.addEventListener('likes', function (event) {
    var data = JSON.parse(event.data);
    document.querySelectorAll('[data-likes-for="' + data.id + '"]').forEach(function (el) { el.textContent = String(data.count); });
  });
  source.addEventListener('question', questionEvent);
  source.addEventListener('question_hidden', questionEvent);
  ['reset', 'comment', 'report', 'moderation'].forEach(function (name) {
    source.addEventListener(name, schedule);
  });

  document.addEventListener('submit', function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute('data-live-form')) return;
    event.preventDefault();
    var body = new URLSearchParams(new FormData(form));
    fetch(form.action, { method: 'POST', body: body, credentials: 'same-origin', headers: { 'X-CSRFToken': body.get('csrfmiddlewaretoken') || '' }, redirect: 'manual' })
      .then(function () {
        // A question's own form (a like, a moderator's toggle) changes that question only.
        var item = list && form.closest('[id^="question-"]');
        if (item) refreshQuestion(item.id.slice('question-'.length)); else schedule();
      }, function () { form.submit(); });
  });
})();
