/* global document, window */
// A small rich-text editor for textareas marked data-rich-text. Without JavaScript the textarea
// stays and takes HTML as typed; with it, a toolbar (bold, italic, list, link) edits the text and
// the HTML goes back into the textarea on submit. The server cleans the HTML either way.
// data-rich-text holds the button labels in the page's language (web/rich-text.tsx, richTextEditor).
// The buttons show ASCII letters, a bullet and a drawn link icon: glyphs every font has, no emoji.
(function () {
  var SVG = 'http://www.w3.org/2000/svg';
  var english = { toolbar: 'Text formatting', bold: 'Bold', italic: 'Italic', list: 'Bulleted list', link: 'Insert link', url: 'Link address (https://...)' };
  var buttons = [
    ['bold', 'B', 'bold'],
    ['italic', 'I', 'italic'],
    ['insertUnorderedList', '\u2022', 'list'],
    ['createLink', linkIcon, 'link'],
  ];
  // A chain link, two rounded strokes (after Feather's "link" icon, MIT), in the button's text colour.
  function linkIcon() {
    var svg = document.createElementNS(SVG, 'svg');
    [['viewBox', '0 0 24 24'], ['width', '16'], ['height', '16'], ['fill', 'none'], ['stroke', 'currentColor'], ['stroke-width', '2'], ['stroke-linecap', 'round'], ['stroke-linejoin', 'round'], ['aria-hidden', 'true'], ['focusable', 'false']].forEach(function (a) {
      svg.setAttribute(a[0], a[1]);
    });
    ['M10 13a5 5 0 0 0 7.54.54l3-3a5 5 0 0 0-7.07-7.07l-1.72 1.71', 'M14 11a5 5 0 0 0-7.54-.54l-3 3a5 5 0 0 0 7.07 7.07l1.71-1.71'].forEach(function (d) {
      var path = document.createElementNS(SVG, 'path');
      path.setAttribute('d', d);
      svg.appendChild(path);
    });
    return svg;
  }
  function labelsOf(area) {
    var labels = {};
    try {
      labels = JSON.parse(area.getAttribute('data-rich-text')) || {};
    } catch {
      labels = {};
    }
    return function (key) { return typeof labels[key] === 'string' ? labels[key] : english[key]; };
  }
  document.querySelectorAll('textarea[data-rich-text]').forEach(function (area) {
    var say = labelsOf(area);
    var label = document.querySelector('label[for="' + area.id + '"]');
    var toolbar = document.createElement('div');
    toolbar.className = 'rte-toolbar';
    toolbar.setAttribute('role', 'toolbar');
    toolbar.setAttribute('aria-label', say('toolbar'));
    toolbar.setAttribute('aria-controls', area.id + '_editor');
    var editor = document.createElement('div');
    editor.id = area.id + '_editor';
    editor.className = 'rte-editor';
    editor.contentEditable = 'true';
    editor.setAttribute('role', 'textbox');
    editor.setAttribute('aria-multiline', 'true');
    if (label) {
      label.id = label.id || area.id + '_label';
      editor.setAttribute('aria-labelledby', label.id);
      label.addEventListener('click', function () { editor.focus(); });
    }
    if (area.getAttribute('aria-describedby')) editor.setAttribute('aria-describedby', area.getAttribute('aria-describedby'));
    // Plain text (typed without the editor) keeps its lines; an empty editor starts with a paragraph,
    // so that Enter makes paragraphs (<p>, see defaultParagraphSeparator) from the first line on.
    editor.innerHTML = /<(p|div|ul|ol|h[1-6]|blockquote)[\s>]/i.test(area.value) ? area.value : area.value.trim() ? '<p>' + area.value.trim().replace(/&(?![#\w]+;)/g, '&amp;').split(/\r?\n\s*\r?\n/).map(function (p) { return p.replace(/\r?\n/g, '<br>'); }).join('</p><p>') + '</p>' : '<p><br></p>';
    buttons.forEach(function (b) {
      var button = document.createElement('button');
      button.type = 'button';
      if (typeof b[1] === 'function') button.appendChild(b[1]());
      else button.textContent = b[1];
      // The accessible name begins with what the button shows (WCAG 2.5.3 Label in Name): "B Bold".
      var name = typeof b[1] === 'function' ? say(b[2]) : b[1] + ' ' + say(b[2]);
      button.setAttribute('aria-label', name);
      button.title = say(b[2]);
      button.addEventListener('click', function () {
        editor.focus();
        if (b[0] === 'createLink') {
          var url = window.prompt(say('url'));
          if (url && /^https?:\/\//i.test(url)) document.execCommand('createLink', false, url);
        } else document.execCommand(b[0], false);
      });
      toolbar.appendChild(button);
    });
    area.hidden = true;
    area.removeAttribute('required');
    area.parentNode.insertBefore(toolbar, area);
    area.parentNode.insertBefore(editor, area);
    // Chromium makes a <div> of each new line unless told otherwise; the server turns stray divs into <p> as well.
    document.execCommand('defaultParagraphSeparator', false, 'p');
    // An editor left empty sends nothing (not an empty paragraph).
    var sync = function () { area.value = editor.textContent.trim() || editor.querySelector('img') ? editor.innerHTML : ''; };
    editor.addEventListener('input', sync);
    if (area.form) area.form.addEventListener('submit', sync);
  });
})();
