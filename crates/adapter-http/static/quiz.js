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
