/* global document */
// Progressive enhancement: activity dates younger than 7 days read as relative time ("3 days ago",
// "vor 3 Tagen"), as the reference's timeago does. Without JavaScript the d.m.Y date stays.
(function () {
  var lang = document.documentElement.lang || 'en';
  if (typeof Intl === 'undefined' || !Intl.RelativeTimeFormat) return;
  var format = new Intl.RelativeTimeFormat(lang, { numeric: 'auto' });
  var steps = [['day', 86400], ['hour', 3600], ['minute', 60], ['second', 1]];
  var times = document.querySelectorAll('time.relative[datetime]');
  for (var i = 0; i < times.length; i++) {
    var seconds = (Date.parse(times[i].getAttribute('datetime')) - Date.now()) / 1000;
    if (!(Math.abs(seconds) < 7 * 86400)) continue;
    for (var j = 0; j < steps.length; j++) {
      if (Math.abs(seconds) >= steps[j][1] || j === steps.length - 1) {
        times[i].textContent = format.format(Math.round(seconds / steps[j][1]), steps[j][0]);
        break;
      }
    }
  }
})();
