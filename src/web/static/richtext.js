/* global document, window */
// A small rich-text editor for textareas marked data-rich-text. Without JavaScript the textarea
// stays and takes HTML as typed; with it, a toolbar (bold, italic, list, link) edits the text and
// the HTML goes back into the textarea on submit. The server cleans the HTML either way.
(function () {
  var buttons = [
    ['bold', 'B', 'Bold'],
    ['italic', 'I', 'Italic'],
    ['insertUnorderedList', '•', 'List'],
    ['createLink', '🔗', 'Link'],
  ];
  document.querySelectorAll('textarea[data-rich-text]').forEach(function (area) {
    var label = document.querySelector('label[for="' + area.id + '"]');
    var toolbar = document.createElement('div');
    toolbar.className = 'rte-toolbar';
    toolbar.setAttribute('role', 'toolbar');
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
    editor.innerHTML = area.value;
    buttons.forEach(function (b) {
      var button = document.createElement('button');
      button.type = 'button';
      button.textContent = b[1];
      button.setAttribute('aria-label', b[2]);
      button.addEventListener('click', function () {
        editor.focus();
        if (b[0] === 'createLink') {
          var url = window.prompt('URL');
          if (url && /^https?:\/\//i.test(url)) document.execCommand('createLink', false, url);
        } else document.execCommand(b[0], false);
      });
      toolbar.appendChild(button);
    });
    area.hidden = true;
    area.removeAttribute('required');
    area.parentNode.insertBefore(toolbar, area);
    area.parentNode.insertBefore(editor, area);
    var sync = function () { area.value = editor.innerHTML; };
    editor.addEventListener('input', sync);
    if (area.form) area.form.addEventListener('submit', sync);
  });
})();
