/* global document */
// The poll's steps (progressive enhancement of the module page's poll form, features/polls/views.tsx):
// one question at a time with "Previous" and "Next", the last step with the terms, the spam check
// and the submit button. Without this script the form shows every question at once and works the same.
(function () {
  'use strict';
  var forms = document.querySelectorAll('form.poll-form');
  Array.prototype.forEach.call(forms, function (form) {
    var steps = form.querySelectorAll('fieldset.poll-question');
    var submit = form.querySelector('.poll-submit');
    if (steps.length < 2 || !submit) return;
    var lang = document.documentElement.lang === 'de' ? 'de' : 'en';
    var words = {
      en: { previous: 'Previous', next: 'Next' },
      de: { previous: 'Zurück', next: 'Weiter' },
    }[lang];
    var current = 0;
    var nav = document.createElement('div');
    nav.className = 'poll-nav';
    var previous = document.createElement('button');
    previous.type = 'button';
    previous.textContent = words.previous;
    var next = document.createElement('button');
    next.type = 'button';
    next.textContent = words.next;
    nav.appendChild(previous);
    nav.appendChild(next);
    form.insertBefore(nav, submit);
    form.classList.add('poll-stepped');

    function show(index, focus) {
      current = index;
      Array.prototype.forEach.call(steps, function (step, i) {
        step.hidden = i !== index;
      });
      var last = index === steps.length - 1;
      previous.hidden = index === 0;
      next.hidden = last;
      submit.hidden = !last;
      if (focus) {
        var legend = steps[index].querySelector('legend');
        if (legend) {
          legend.setAttribute('tabindex', '-1');
          legend.focus();
        }
      }
    }
    previous.addEventListener('click', function () {
      if (current > 0) show(current - 1, true);
    });
    next.addEventListener('click', function () {
      if (current < steps.length - 1) show(current + 1, true);
    });
    show(0, false);
  });
})();
