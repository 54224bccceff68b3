/** German texts of the maps: map ideas, proposals, the module area (issue 24). Keep keys sorted. */
export const deMaps: Record<string, string> = {
  'Area (GeoJSON)': 'Gebiet (GeoJSON)',
  Budget: 'Budget',
  'Budget (whole euros)': 'Budget (ganze Euro)',
  'Click on the map to set the place, or enter its latitude and longitude (decimal degrees). It must lie inside the area of this module.':
    'Klicken Sie auf die Karte, um den Ort festzulegen, oder geben Sie Breiten- und Längengrad ein (Dezimalgrad). Er muss im Gebiet dieses Moduls liegen.',
  'Draw the area on the map (click to add corners, then "Finish"), choose a preset, or paste a GeoJSON FeatureCollection of polygons. Ideas can only be placed inside it.':
    'Zeichnen Sie das Gebiet auf der Karte (Ecken anklicken, dann „Fläche abschließen“), wählen Sie eine Vorlage oder fügen Sie eine GeoJSON-FeatureCollection von Polygonen ein. Ideen können nur darin verortet werden.',
  'Ensure this field has no more than 255 characters.': 'Dieses Feld darf höchstens 255 Zeichen enthalten.',
  'Enter a whole number of euros, 0 or more.': 'Geben Sie eine ganze Zahl von Euro ein, 0 oder mehr.',
  'Ensure this value is less than or equal to 2147483647.': 'Dieser Wert darf höchstens 2147483647 sein.',
  'Exclude this proposal from all listings by default. You can still access this proposal by using filters.':
    'Diesen Vorschlag standardmäßig aus allen Listen ausschließen. Über die Filter bleibt er erreichbar.',
  Find: 'Suchen',
  'Label of the place': 'Bezeichnung des Ortes',
  'Map of the ideas': 'Karte der Ideen',
  'Map of the place': 'Karte des Ortes',
  'Map: click to set the place': 'Karte: klicken, um den Ort festzulegen',
  'Map: draw the area': 'Karte: das Gebiet zeichnen',
  'No preset': 'Keine Vorlage',
  Place: 'Ort',
  'Place label': 'Ortsbezeichnung',
  'Please locate your proposal on the map.': 'Bitte verorten Sie Ihren Vorschlag auf der Karte.',
  Preset: 'Vorlage',
  Proposals: 'Vorschläge',
  'Required budget': 'Benötigtes Budget',
  'Search an address': 'Adresse suchen',
  'The map background cannot be loaded. Clicking the map still sets the place, and the latitude and longitude fields work without it.':
    'Der Kartenhintergrund kann nicht geladen werden. Ein Klick auf die Karte setzt den Ort trotzdem, und die Felder für Breiten- und Längengrad funktionieren auch ohne ihn.',
  'The map needs JavaScript; the list and the fields work without it.': 'Die Karte braucht JavaScript; die Liste und die Felder funktionieren ohne.',
  'The point is outside the area of this module.': 'Der Punkt liegt außerhalb des Gebiets dieses Moduls.',
  'This could be an address or the name of a landmark.': 'Das kann eine Adresse oder der Name eines Wahrzeichens sein.',
  'This is not a valid area: a GeoJSON FeatureCollection of polygons (each ring closed, at least four positions).':
    'Das ist kein gültiges Gebiet: eine GeoJSON-FeatureCollection von Polygonen (jeder Ring geschlossen, mindestens vier Positionen).',
  'This is not a valid point: latitude between -90 and 90, longitude between -180 and 180.': 'Das ist kein gültiger Punkt: Breitengrad zwischen -90 und 90, Längengrad zwischen -180 und 180.',
  // Map presets and administrative districts (issue 34.6).
  'A GeoJSON FeatureCollection of polygons (longitude, latitude in WGS 84), e.g. exported from QGIS or geojson.io. Upload a file or paste its text.':
    'Eine GeoJSON-FeatureCollection von Polygonen (Längengrad, Breitengrad in WGS 84), z. B. aus QGIS oder geojson.io exportiert. Laden Sie eine Datei hoch oder fügen Sie ihren Text ein.',
  'Add a district':
    'Bezirk hinzufügen',
  'Add an area preset':
    'Gebietsvorlage hinzufügen',
  'Add category':
    'Kategorie hinzufügen',
  'Administrative districts':
    'Bezirke',
  'An uploaded file replaces the text below.':
    'Eine hochgeladene Datei ersetzt den Text unten.',
  'Area':
    'Gebiet',
  'Area (GeoJSON, optional)':
    'Gebiet (GeoJSON, optional)',
  'Area presets':
    'Gebietsvorlagen',
  'Deleting a category keeps its presets, without a category.':
    'Wird eine Kategorie gelöscht, bleiben ihre Vorlagen erhalten, ohne Kategorie.',
  'Edit area preset':
    'Gebietsvorlage bearbeiten',
  'Edit district':
    'Bezirk bearbeiten',
  'Ensure this field has no more than 128 characters.':
    'Dieses Feld darf höchstens 128 Zeichen enthalten.',
  'Ensure this field has no more than 2 characters.':
    'Dieses Feld darf höchstens 2 Zeichen enthalten.',
  'GeoJSON file':
    'GeoJSON-Datei',
  'Initiators choose an area preset for a map module and a district for a project. Nothing here is built in: the example presets come with the demo data or docs/examples/map-presets.json.':
    'Initiator*innen wählen eine Gebietsvorlage für ein Kartenmodul und einen Bezirk für ein Projekt. Nichts davon ist fest eingebaut: Die Beispielvorlagen kommen mit den Demodaten oder aus docs/examples/map-presets.json.',
  'It has been deleted.':
    'Es wurde gelöscht.',
  'Maps':
    'Karten',
  'New category':
    'Neue Kategorie',
  'No category':
    'Keine Kategorie',
  'No district':
    'Kein Bezirk',
  'Preset categories':
    'Vorlagenkategorien',
  Rename:
    'Umbenennen',
  'Rename preset category':
    'Vorlagenkategorie umbenennen',
  'Short code':
    'Kürzel',
  'The areas the platform keeps (its operator adds them in the back-office). A preset replaces the area below.':
    'Die Gebiete, die die Plattform bereithält (ihr Betreiber fügt sie im Back-Office hinzu). Eine Vorlage ersetzt das Gebiet unten.',
  'The part of the city the project is about; the project list can be filtered by it.':
    'Der Teil der Stadt, um den es im Projekt geht; die Projektliste lässt sich danach filtern.',
  'Two characters, e.g. "mi" for Mitte (optional).':
    'Zwei Zeichen, z. B. „mi“ für Mitte (optional).',
};
