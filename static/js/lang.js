// Send a visitor of the language chooser straight to the language the
// browser prefers, once a session. A file of its own rather than inline, so
// that the site's Content-Security-Policy can forbid inline scripts.
(function () {
  if (location.protocol === "file:" || sessionStorage.getItem("il-chose")) return;
  sessionStorage.setItem("il-chose", "1");
  var langs = navigator.languages || [navigator.language || ""];
  for (var i = 0; i < langs.length; i++) {
    var l = String(langs[i]).slice(0, 2).toLowerCase();
    if (l === "ko" || l === "en") {
      var a = document.querySelector('a[hreflang="' + l + '"]');
      if (a) location.replace(a.href);
      return;
    }
  }
})();
