// The device check: a SHA-256 of a few browser attributes, computed here so that the
// server never sees the attributes themselves. Everything else on the page works
// without JavaScript.
(function () {
  "use strict";
  var button = document.getElementById("fingerprint-button");
  if (!button || !window.crypto || !window.crypto.subtle) { return; }
  button.addEventListener("click", function () {
    var attributes = [
      navigator.userAgent, navigator.language, (navigator.languages || []).join(","),
      screen.width + "x" + screen.height + "x" + screen.colorDepth,
      new Date().getTimezoneOffset(), Intl.DateTimeFormat().resolvedOptions().timeZone || "",
      navigator.hardwareConcurrency || "", navigator.platform || ""
    ].join("|");
    button.disabled = true;
    crypto.subtle.digest("SHA-256", new TextEncoder().encode(attributes)).then(function (digest) {
      var hex = Array.prototype.map.call(new Uint8Array(digest), function (b) {
        return ("0" + b.toString(16)).slice(-2);
      }).join("");
      return fetch(button.getAttribute("data-action"), {
        method: "POST",
        headers: { "Content-Type": "application/json", "Accept": "application/json" },
        body: JSON.stringify({ fingerprint: hex })
      });
    }).then(function () { window.location.reload(); }, function () { button.disabled = false; });
  });
})();

// Country names in the page's language, from the browser's own data: the server sends
// ISO 3166's English names (no country-name data in French or Spanish is bundled), which
// stay as they are without script or where the browser has no names.
(function () {
  "use strict";
  var list = document.getElementById("country");
  var lang = document.documentElement.lang;
  if (!list || lang === "en" || !window.Intl || !Intl.DisplayNames) { return; }
  var names;
  try { names = new Intl.DisplayNames([lang], { type: "region" }); } catch (e) { return; }
  // The first option is the prompt; the others are countries by their ISO code.
  var countries = Array.prototype.slice.call(list.options, 1);
  countries.forEach(function (option) {
    var name = names.of(option.value);
    if (name && name !== option.value) { option.textContent = name; }
  });
  countries.sort(function (a, b) { return a.textContent.localeCompare(b.textContent, lang); });
  countries.forEach(function (option) { list.appendChild(option); });
})();
