/* global document, window, fetch, L */
// Progressive enhancement of the maps (map ideas, proposals, the dashboard's area): Leaflet, served
// by Allmende under /static/leaflet/, draws each [data-map] element. Without JavaScript or tiles the
// forms' latitude, longitude and GeoJSON fields do the same job.
(function () {
  if (window.allmendeMaps) return;
  window.allmendeMaps = true;
  var boxes = document.querySelectorAll('[data-map]');
  if (!boxes.length) return;

  function load(done) {
    var css = document.createElement('link');
    css.rel = 'stylesheet';
    css.href = '/static/leaflet/leaflet.css';
    document.head.appendChild(css);
    var script = document.createElement('script');
    script.src = '/static/leaflet/leaflet.js';
    script.onload = done;
    document.head.appendChild(script);
  }

  function withConfig(spec, done) {
    if (spec.tiles) return done(spec);
    fetch('/maps/config/', { credentials: 'same-origin' })
      .then(function (r) { return r.json(); })
      .then(function (c) { spec.tiles = c.tiles; spec.attribution = c.attribution; spec.geocoder = c.geocoder; done(spec); })
      .catch(function () {});
  }

  function byId(id) { return id ? document.getElementById(id) : null; }

  function draw(box, spec) {
    box.classList.add('map-ready');
    var map = L.map(box, { scrollWheelZoom: false });
    var tiles = L.tileLayer(spec.tiles, { attribution: spec.attribution, maxZoom: 19 }).addTo(map);
    // Tiles that cannot be loaded (no public tile server, MAP_TILES_URL unreachable): the map still works, and says so once.
    tiles.once('tileerror', function () {
      var note = document.createElement('p');
      note.className = 'help map-note';
      note.setAttribute('role', 'status');
      note.textContent = box.getAttribute('data-tiles-failed') || '';
      box.parentNode.insertBefore(note, box.nextSibling);
    });
    var area = spec.area ? L.geoJSON(spec.area, { style: AREA_STYLE }).addTo(map) : null;
    var bounds = area && area.getBounds().isValid() ? area.getBounds() : L.latLngBounds([[47.302, 5.988], [54.983, 15.016]]);
    var markers = (spec.markers || []).map(function (m) {
      var marker = L.marker([m.lat, m.lng], { title: m.name, alt: m.name }).addTo(map);
      var link = document.createElement('a');
      link.href = m.url;
      link.textContent = m.name;
      marker.bindPopup(link);
      return marker;
    });
    if (!area && markers.length) bounds = L.featureGroup(markers).getBounds();
    if (markers.length === 1 && !spec.input) map.setView(markers[0].getLatLng(), 15);
    else map.fitBounds(bounds, { padding: [10, 10] });
    if (spec.input) chooser(map, spec);
    if (spec.draw) {
      var current = shown(map, area);
      drawer(map, spec, current);
      presetPreview(spec, current);
    }
  }

  var AREA_STYLE = { color: '#2d40cc', weight: 2, fillOpacity: 0.08 };

  // The area on the dashboard's map, one at a time: the stored one, a preset's (previewed) or a drawn one.
  function shown(map, stored) {
    var layer = stored;
    return {
      show: function (next) {
        if (layer) map.removeLayer(layer);
        layer = next ? next.addTo(map) : null;
        if (layer && layer.getBounds().isValid()) map.fitBounds(layer.getBounds(), { padding: [10, 10] });
      },
      stored: stored,
    };
  }

  // Choosing a preset in the area form draws its area before saving (the server takes the preset on save);
  // "No preset" shows the stored area again.
  function presetPreview(spec, area) {
    var select = byId(spec.presets && spec.presets.select);
    if (!select) return;
    select.addEventListener('change', function () {
      var preset = spec.presets.areas[select.value];
      area.show(preset ? L.geoJSON(preset, { style: AREA_STYLE }) : area.stored);
    });
  }

  // A click on the map sets the point: the latitude and longitude fields are filled (the server checks the area).
  function chooser(map, spec) {
    var lat = byId(spec.input.lat);
    var lng = byId(spec.input.lng);
    var marker = null;
    function place(latlng) {
      if (marker) marker.setLatLng(latlng);
      else marker = L.marker(latlng).addTo(map);
    }
    function fromFields() {
      var a = parseFloat(String(lat.value).replace(',', '.'));
      var b = parseFloat(String(lng.value).replace(',', '.'));
      if (isFinite(a) && isFinite(b)) place([a, b]);
    }
    fromFields();
    if (marker) map.setView(marker.getLatLng(), Math.max(map.getZoom(), 14));
    lat.addEventListener('change', fromFields);
    lng.addEventListener('change', fromFields);
    map.on('click', function (e) {
      place(e.latlng);
      lat.value = e.latlng.lat.toFixed(6);
      lng.value = e.latlng.lng.toFixed(6);
    });
    if (spec.geocoder) geocoder(map, spec, function (latlng, label) {
      place(latlng);
      map.setView(latlng, 16);
      lat.value = latlng[0].toFixed(6);
      lng.value = latlng[1].toFixed(6);
      var labelField = byId('id_point_label');
      if (labelField && !labelField.value) labelField.value = label;
    });
  }

  // The address search (GEOCODER_URL, a Nominatim-compatible service), asked by the browser only.
  function geocoder(map, spec, found) {
    var box = map.getContainer();
    var form = document.createElement('div');
    form.className = 'map-search';
    var input = document.createElement('input');
    input.type = 'search';
    input.setAttribute('aria-label', box.getAttribute('data-search-label') || 'Search an address');
    var button = document.createElement('button');
    button.type = 'button';
    button.textContent = box.getAttribute('data-search-button') || 'Find';
    form.appendChild(input);
    form.appendChild(button);
    box.parentNode.insertBefore(form, box);
    button.addEventListener('click', function () {
      if (!input.value.trim()) return;
      var url = spec.geocoder + (spec.geocoder.indexOf('?') < 0 ? '?' : '&') + 'format=json&limit=1&q=' + encodeURIComponent(input.value.trim());
      fetch(url).then(function (r) { return r.json(); }).then(function (list) {
        if (list && list[0]) found([parseFloat(list[0].lat), parseFloat(list[0].lon)], list[0].display_name || input.value);
      }).catch(function () {});
    });
  }

  // Drawing the area: clicks add corners; "Finish" writes a FeatureCollection with the polygon into the GeoJSON field.
  function drawer(map, spec, area) {
    var field = byId(spec.draw);
    var corners = [];
    var line = L.polyline([], { color: '#c0392b' }).addTo(map);
    var bar = document.createElement('div');
    bar.className = 'map-draw-bar';
    function button(text, action) {
      var b = document.createElement('button');
      b.type = 'button';
      b.textContent = text;
      b.addEventListener('click', action);
      bar.appendChild(b);
    }
    var lang = document.documentElement.lang;
    button(lang === 'de' ? 'Fläche abschließen' : 'Finish the area', function () {
      if (corners.length < 3) return;
      var ring = corners.map(function (c) { return [Number(c.lng.toFixed(6)), Number(c.lat.toFixed(6))]; });
      ring.push(ring[0]);
      field.value = JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [ring] } }] });
      // What is drawn is what is saved: a chosen preset would win over it.
      var select = byId(spec.presets && spec.presets.select);
      if (select) select.value = '';
      area.show(L.polygon(corners, { color: '#2d40cc' }));
      corners = [];
      line.setLatLngs([]);
    });
    button(lang === 'de' ? 'Neu beginnen' : 'Start again', function () {
      corners = [];
      line.setLatLngs([]);
    });
    map.getContainer().parentNode.insertBefore(bar, map.getContainer().nextSibling);
    map.on('click', function (e) {
      corners.push(e.latlng);
      line.setLatLngs(corners);
    });
  }

  load(function () {
    for (var i = 0; i < boxes.length; i++) {
      (function (box) {
        var spec;
        try { spec = JSON.parse(box.getAttribute('data-map')); } catch { return; }
        withConfig(spec, function (s) { draw(box, s); });
      })(boxes[i]);
    }
  });
})();
