/* global document, window, location, EventSource, DOMParser, setTimeout, fetch, FormData, URLSearchParams, HTMLFormElement */
// Pages that update themselves through the live channel (src/http/live.ts, docs/api.md "Live channel").
// An element with data-live-stream names its EventSource; data-live-last is the event id the page was
// rendered at, so nothing between the render and the connection is lost (EventSource then sends
// Last-Event-ID itself on every reconnect). Like counts change in place. A question event carries
// the question: a participant's event page ([data-last-question]: the highest id it counted;
// #question-template: a blank item of its open list) shows it itself, fetching nothing: a copy of the
// template for a new question on top of the
// first page ([data-live-new]), the badges of a changed one, an answered or hidden one leaves, and
// the headings' counts move. What it cannot place (a question it had not counted, or a moderator's
// page, whose items have controls) fetches only that question with the headings' counts from its
// fragment ([data-live-questions]) and swaps them in by id; other events, and what a fragment cannot
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
    known = {};
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

  var HEADINGS = ['questions-heading', 'answered-heading'];
  // Looked up each time: a swap of the region brings new ones.
  function openList() { return document.querySelector('[data-live-questions]'); }
  function placeNew(list, item) {
    var after = Array.prototype.filter.call(list.children, function (li) { return Number(li.id.slice('question-'.length)) < Number(item.id.slice('question-'.length)); })[0];
    list.insertBefore(item, after || null);
    document.querySelectorAll('[data-live-empty]').forEach(function (empty) { empty.remove(); });
  }

  /** What a participant's page last heard of a question it had not counted when rendered: 'open', 'answered' or 'none'. */
  var known = {};
  function openItem(id) { var list = openList(); var item = document.getElementById('question-' + id); return list && item && list.contains(item) ? item : null; }
  /** Where the page had a question: 'open' (its open list), 'none' (asked after the page counted, or hidden), null (not known here). */
  function before(counted, id) {
    if (openItem(id)) return 'open';
    if (Object.prototype.hasOwnProperty.call(known, id)) return known[id];
    return Number(id) > Number(counted.getAttribute('data-last-question')) ? 'none' : null;
  }
  /** A copy of the template filled with a question (user text by textContent only). */
  function fill(template, data) {
    var token = template.getAttribute('data-id-token');
    var item = document.importNode(template.content.firstElementChild, true);
    [item].concat(Array.prototype.slice.call(item.querySelectorAll('*'))).forEach(function (el) {
      Array.prototype.slice.call(el.attributes).forEach(function (attr) { if (attr.value.indexOf(token) >= 0) el.setAttribute(attr.name, attr.value.split(token).join(String(data.id))); });
    });
    item.querySelector('.live-question-text').textContent = data.text;
    var badges = { category: Boolean(data.category), live: data.is_live && !data.is_answered, shortlist: data.is_on_shortlist, answered: data.is_answered, hidden: data.is_hidden };
    item.querySelectorAll('[data-badge]').forEach(function (badge) { if (!badges[badge.getAttribute('data-badge')]) badge.remove(); });
    var category = item.querySelector('[data-badge="category"]');
    if (category) category.textContent = data.category;
    item.querySelectorAll('[data-likes-for]').forEach(function (el) { el.textContent = String(data.likes ? data.likes.count : 0); });
    return item;
  }
  function moveCount(heading, delta) { heading.textContent = heading.textContent.replace(/\d+/, function (n) { return String(Number(n) + delta); }); }
  /** The answered questions' section shows once there are some. */
  function showAnswered() {
    var heading = document.getElementById('answered-heading');
    var section = heading && heading.closest('section');
    if (section) section.hidden = !/[1-9]/.test(heading.textContent);
  }
  /** Shows a question event on a participant's page without fetching; false when it cannot. */
  function showQuestion(name, data) {
    var counted = document.querySelector('[data-last-question]');
    var template = document.getElementById('question-template');
    var id = String(data.id);
    var was = counted && before(counted, id);
    if (!was) return false;
    var now = name === 'question_hidden' || data.is_hidden ? 'none' : data.is_answered ? 'answered' : 'open';
    var deltas = [Number(now === 'open') - Number(was === 'open'), Number(now === 'answered') - Number(was === 'answered')];
    if (HEADINGS.some(function (heading, i) { return deltas[i] && !document.getElementById(heading); })) { schedule(); return true; }
    HEADINGS.forEach(function (heading, i) { if (deltas[i]) moveCount(document.getElementById(heading), deltas[i]); });
    showAnswered();
    var item = openItem(id);
    var list = openList();
    if (now === 'open' && item && template) {
      var fresh = fill(template, data);
      item.querySelector('.live-question-text').textContent = data.text;
      item.querySelector('.meta').replaceWith(fresh.querySelector('.meta'));
    } else if (now === 'open' && list && template && list.hasAttribute('data-live-new')) placeNew(list, fill(template, data));
    else if (now !== 'open' && item) item.remove();
    known[id] = now;
    document.documentElement.setAttribute('data-live-updated', String(Date.now()));
    return true;
  }

  /** Swaps in one question and the headings' counts from its fragment; the whole page when the fragment does not fit. */
  function refreshQuestion(id) {
    var list = openList();
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
        } else if (item && list.hasAttribute('data-live-new')) placeNew(list, document.importNode(item, true));
        else if (current) current.remove();
        showAnswered();
        if (!fits) schedule();
        else document.documentElement.setAttribute('data-live-updated', String(Date.now()));
      })
      .catch(schedule);
  }
  function questionEvent(event) {
    var data = JSON.parse(event.data);
    if (!showQuestion(event.type, data)) refreshQuestion(data.id);
  }

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
        var item = openList() && form.closest('[id^="question-"]');
        if (item) refreshQuestion(item.id.slice('question-'.length)); else schedule();
      }, function () { form.submit(); });
  });
})();
