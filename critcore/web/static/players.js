// The players' page: ask the server every two seconds whether the campaign changed, and reload
// when it did. No library, no build step.
(function () {
  var feed = document.getElementById("feed");
  if (!feed) { return; }
  var seen = feed.getAttribute("data-version");
  var url = feed.getAttribute("data-poll");
  function poll() {
    fetch(url, {cache: "no-store"}).then(function (r) { return r.json(); }).then(function (d) {
      if (String(d.version) !== seen) { window.location.reload(); }
    }).catch(function () {}).finally(function () { setTimeout(poll, 2000); });
  }
  setTimeout(poll, 2000);
})();
