/* global document, CustomEvent */
// Allmende's stand-in for the module `@prosopo/procaptcha-wrapper` (docs/decisions.md, issue 38).
// adhocracy+'s poll widget shows its captcha with `renderProcaptcha(container, options)` and sends
// what `options.callback` hands it as the ballot's `captcha`. A build of that widget for Allmende
// points the module name at this file (a bundler alias): the widget, unchanged, then shows
// Allmende's self-hosted ALTCHA widget, which solves GET /challenge/ by itself, and its solved
// payload is the "token" that POST /api/polls/{pk}/vote/ verifies. The site key is not used.

const FILES = [
  { tag: 'link', href: '/static/altcha/altcha.css' },
  { tag: 'script', src: '/static/altcha/de.js' },
  { tag: 'script', src: '/static/altcha-setup.js' },
  { tag: 'script', src: '/static/altcha/altcha.js' },
];

let loaded = null;

/** Adds the ALTCHA widget's files to the page once, the scripts in order (de.js creates the global the others use). */
function loadAltcha() {
  loaded =
    loaded ||
    Promise.all(
      FILES.map(
        (file) =>
          new Promise((resolve, reject) => {
            const element = document.createElement(file.tag);
            if (file.tag === 'link') Object.assign(element, { rel: 'stylesheet', href: file.href });
            else Object.assign(element, { src: file.src, async: false });
            element.addEventListener('load', resolve);
            element.addEventListener('error', () => reject(new Error(`ALTCHA: ${file.src || file.href} did not load`)));
            document.head.appendChild(element);
          }),
      ),
    );
  return loaded;
}

/** Prosopo's call, answered with an ALTCHA widget: `callback` gets the solved payload, `expired-callback` and `error-callback` what their names say. */
export function renderProcaptcha(container, options) {
  const report = (name, value) => (typeof options[name] === 'function' ? options[name](value) : undefined);
  const widget = document.createElement('altcha-widget');
  widget.setAttribute('challenge', '/challenge/');
  widget.setAttribute('auto', 'onload');
  widget.setAttribute('name', 'altcha');
  if (options.language) widget.setAttribute('language', options.language);
  widget.setAttribute('configuration', JSON.stringify({ hideLogo: true, hideFooter: true }));
  widget.addEventListener('statechange', (event) => {
    const { state, payload } = event instanceof CustomEvent ? event.detail : {};
    if (state === 'verified') report('callback', payload);
    else if (state === 'expired') report('expired-callback');
    else if (state === 'error') report('error-callback', new Error('ALTCHA: the challenge could not be solved'));
  });
  container.appendChild(widget);
  loadAltcha().catch((error) => report('error-callback', error));
}
