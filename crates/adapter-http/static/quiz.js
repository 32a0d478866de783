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

// The camera guide: beside the file input of each photo step, a button opens the camera
// in the page (the rear one for a document, the front one for a selfie), draws the
// document's or the face's outline over the preview, judges each frame's size, light and
// sharpness against the server's own `document_quality` limits (given by the page), and
// takes the shot when the frame is good and holds still, or when the button is pressed.
// The shot goes into the form's own file input and the form is sent as if the client had
// chosen the file, so the server judges it and the page tells the result as for any
// upload. Without a camera, script or permission, the file input is all there is.
(function () {
  "use strict";
  var data = document.getElementById("camera-guide");
  if (!data || !navigator.mediaDevices || !navigator.mediaDevices.getUserMedia
      || !navigator.mediaDevices.enumerateDevices || typeof DataTransfer !== "function"
      || !HTMLFormElement.prototype.requestSubmit) { return; }
  var text = data.dataset;
  var limits = {
    shortSide: Number(text.minShortSide),
    sharpness: Number(text.minSharpness),
    brightness: Number(text.minBrightness)
  };
  // What the server measures sharpness at, and how (adapter-image's quality.rs).
  var SHARPNESS_WIDTH = 1000, TILES = 10;
  // A frame is still when its thumbnail moved less than this, in grey levels on average.
  var STILL = 6;
  // Good frames in a row before the shot is taken by itself.
  var GOOD_IN_A_ROW = 3;
  var TICK_MS = 300;
  var open = null;

  navigator.mediaDevices.enumerateDevices().then(function (devices) {
    if (!devices.some(function (d) { return d.kind === "videoinput"; })) { return; }
    document.querySelectorAll("form[data-camera]").forEach(offer);
  }, function () {});

  function offer(form) {
    var button = element("button", { type: "button", "class": "camera-open" }, text.open);
    form.insertBefore(button, form.querySelector("button[type=submit]"));
    button.addEventListener("click", function () { start(form, button); });
  }

  function element(name, attributes, content) {
    var node = document.createElement(name);
    Object.keys(attributes || {}).forEach(function (k) { node.setAttribute(k, attributes[k]); });
    if (content) { node.textContent = content; }
    return node;
  }

  function start(form, opener) {
    if (open) { open.close(); }
    var face = form.dataset.shape === "face";
    var hint = element("p", { "class": "camera-hint", role: "status" }, face ? text.face : text.frame);
    var video = element("video", { playsinline: "", muted: "", autoplay: "", "aria-label": text.preview });
    video.muted = true;
    var outline = element("div", { "class": "camera-outline " + form.dataset.shape, "aria-hidden": "true" });
    var finder = element("div", { "class": "camera-finder" + (face ? " mirrored" : "") });
    finder.appendChild(video);
    finder.appendChild(outline);
    var shoot = element("button", { type: "button", "class": "camera-shoot" }, text.shoot);
    var close = element("button", { type: "button", "class": "camera-close" }, text.close);
    var guide = element("div", { "class": "camera", role: "group", "aria-label": text.preview });
    [finder, hint, shoot, close].forEach(function (n) { guide.appendChild(n); });
    opener.hidden = true;
    form.insertBefore(guide, opener);

    var stream = null, timer = null, previous = null, good = 0, said = "";
    var session = { close: stop };
    open = session;

    function say(words) {
      if (words !== said) { hint.textContent = said = words; }
    }
    function stop(focusOpener) {
      clearTimeout(timer);
      if (stream) { stream.getTracks().forEach(function (t) { t.stop(); }); }
      guide.remove();
      opener.hidden = false;
      if (open === session) { open = null; }
      if (focusOpener) { opener.focus(); }
    }
    close.addEventListener("click", function () { stop(true); });
    guide.addEventListener("keydown", function (e) { if (e.key === "Escape") { stop(true); } });
    shoot.addEventListener("click", function () { take(); });

    navigator.mediaDevices.getUserMedia({
      audio: false,
      video: { facingMode: { ideal: form.dataset.camera }, width: { ideal: 1920 }, height: { ideal: 1080 } }
    }).then(function (got) {
      stream = got;
      video.srcObject = got;
      shoot.focus();
      timer = setTimeout(judge, TICK_MS);
    }, function () {
      stop(false);
      var note = form.querySelector(".camera-refused") || element("p", { "class": "camera-refused", role: "status" });
      note.textContent = text.unavailable;
      form.insertBefore(note, opener);
      opener.remove();
      form.querySelector("input[type=file]").focus();
    });

    function judge() {
      timer = setTimeout(judge, TICK_MS);
      if (video.readyState < 2 || !video.videoWidth) { return; }
      var frame = measure(video, previous);
      previous = frame.thumbnail;
      var problem = Math.min(video.videoWidth, video.videoHeight) < limits.shortSide ? text.tooSmall
        : frame.brightness < limits.brightness ? text.tooDark
        : frame.sharpness < limits.sharpness ? text.blurry
        : null;
      if (problem) {
        good = 0;
        say(capitalised(problem));
      } else if (!frame.still) {
        good = 0;
        say(face ? text.face : text.frame);
      } else if (++good < GOOD_IN_A_ROW) {
        say(text.still);
      } else {
        take();
      }
    }

    function take() {
      clearTimeout(timer);
      if (!video.videoWidth) { return; }
      say(text.taking);
      shoot.disabled = true;
      var canvas = element("canvas");
      canvas.width = video.videoWidth;
      canvas.height = video.videoHeight;
      canvas.getContext("2d").drawImage(video, 0, 0);
      canvas.toBlob(function (blob) {
        var files = new DataTransfer();
        files.items.add(new File([blob], "camera.jpg", { type: "image/jpeg" }));
        var input = form.querySelector("input[type=file]");
        input.files = files.files;
        stop(false);
        form.requestSubmit();
      }, "image/jpeg", 0.92);
    }
  }

  function capitalised(words) {
    return words.charAt(0).toLocaleUpperCase(document.documentElement.lang) + words.slice(1) + ".";
  }

  // The frame as the server would judge it: its grey levels at SHARPNESS_WIDTH wide,
  // brightness the level 95 % of them are under, sharpness the re-blur measure over the
  // middle 80 % each way, contrast stretched; and a small thumbnail to tell movement.
  function measure(video, previous) {
    var width = SHARPNESS_WIDTH;
    var height = Math.max(TILES * 4, Math.round(video.videoHeight * width / video.videoWidth));
    var canvas = element("canvas");
    canvas.width = width;
    canvas.height = height;
    var context = canvas.getContext("2d", { willReadFrequently: true });
    context.drawImage(video, 0, 0, width, height);
    var gray = grey(context.getImageData(0, 0, width, height).data);
    var centre = crop(gray, width, height);
    stretch(centre.pixels);
    var original = busiestVariance(laplacian(centre.pixels, centre.width, centre.height), centre.width, centre.height);
    var blurred = busiestVariance(laplacian(blur(centre.pixels, centre.width, centre.height), centre.width, centre.height), centre.width, centre.height);
    var thumbnail = shrink(gray, width, height, 80);
    var moved = previous ? meanDifference(thumbnail, previous) : Infinity;
    return {
      brightness: percentile(gray, 0.95),
      sharpness: original > 0 ? 1 - blurred / original : 0,
      thumbnail: thumbnail,
      still: moved < STILL
    };
  }

  function grey(rgba) {
    var out = new Uint8ClampedArray(rgba.length / 4);
    for (var i = 0, j = 0; j < out.length; i += 4, j++) {
      out[j] = 0.2126 * rgba[i] + 0.7152 * rgba[i + 1] + 0.0722 * rgba[i + 2];
    }
    return out;
  }

  function crop(gray, width, height) {
    var x0 = Math.floor(width / 10), y0 = Math.floor(height / 10);
    var w = Math.floor(width * 8 / 10), h = Math.floor(height * 8 / 10);
    var out = new Uint8ClampedArray(w * h);
    for (var y = 0; y < h; y++) { out.set(gray.subarray((y0 + y) * width + x0, (y0 + y) * width + x0 + w), y * w); }
    return { pixels: out, width: w, height: h };
  }

  function percentile(gray, share) {
    var histogram = new Array(256).fill(0);
    for (var i = 0; i < gray.length; i++) { histogram[gray[i]]++; }
    var wanted = Math.floor(gray.length * share), seen = 0;
    for (var level = 0; level < 256; level++) {
      seen += histogram[level];
      if (seen > wanted) { return level; }
    }
    return 255;
  }

  function stretch(gray) {
    var low = percentile(gray, 0.01), high = percentile(gray, 0.99);
    if (high <= low) { return; }
    for (var i = 0; i < gray.length; i++) {
      gray[i] = Math.round((Math.min(Math.max(gray[i], low), high) - low) * 255 / (high - low));
    }
  }

  // The 4-neighbour Laplacian, edges repeated, as imageproc's `laplacian_filter`.
  function laplacian(gray, width, height) {
    var out = new Float32Array(gray.length);
    for (var y = 0; y < height; y++) {
      var up = Math.max(y - 1, 0) * width, down = Math.min(y + 1, height - 1) * width, row = y * width;
      for (var x = 0; x < width; x++) {
        var left = Math.max(x - 1, 0), right = Math.min(x + 1, width - 1);
        out[row + x] = gray[up + x] + gray[down + x] + gray[row + left] + gray[row + right] - 4 * gray[row + x];
      }
    }
    return out;
  }

  // A gaussian blur of sigma 1 (radius 3), rows then columns, edges repeated.
  function blur(gray, width, height) {
    var kernel = [-3, -2, -1, 0, 1, 2, 3].map(function (d) { return Math.exp(-d * d / 2); });
    var sum = kernel.reduce(function (a, b) { return a + b; });
    kernel = kernel.map(function (k) { return k / sum; });
    var across = new Float32Array(gray.length), out = new Uint8ClampedArray(gray.length);
    for (var y = 0; y < height; y++) {
      for (var x = 0; x < width; x++) {
        var value = 0;
        for (var k = -3; k <= 3; k++) { value += kernel[k + 3] * gray[y * width + Math.min(Math.max(x + k, 0), width - 1)]; }
        across[y * width + x] = value;
      }
    }
    for (y = 0; y < height; y++) {
      for (x = 0; x < width; x++) {
        value = 0;
        for (k = -3; k <= 3; k++) { value += kernel[k + 3] * across[Math.min(Math.max(y + k, 0), height - 1) * width + x]; }
        out[y * width + x] = Math.round(value);
      }
    }
    return out;
  }

  // The mean variance of the busiest tenth of TILES x TILES tiles.
  function busiestVariance(values, width, height) {
    var tileWidth = Math.floor(width / TILES), tileHeight = Math.floor(height / TILES), variances = [];
    for (var row = 0; row < TILES; row++) {
      for (var column = 0; column < TILES; column++) {
        var sum = 0, squares = 0, count = 0;
        for (var y = row * tileHeight; y < (row + 1) * tileHeight; y++) {
          for (var x = column * tileWidth; x < (column + 1) * tileWidth; x++) {
            var v = values[y * width + x];
            sum += v; squares += v * v; count++;
          }
        }
        if (count) { variances.push(squares / count - (sum / count) * (sum / count)); }
      }
    }
    variances.sort(function (a, b) { return b - a; });
    var busiest = variances.slice(0, Math.ceil(variances.length / 10));
    return busiest.length ? busiest.reduce(function (a, b) { return a + b; }) / busiest.length : 0;
  }

  function shrink(gray, width, height, to) {
    var step = width / to, rows = Math.max(1, Math.floor(height / step)), out = new Float32Array(to * rows);
    for (var y = 0; y < rows; y++) {
      for (var x = 0; x < to; x++) { out[y * to + x] = gray[Math.floor(y * step) * width + Math.floor(x * step)]; }
    }
    return out;
  }

  function meanDifference(a, b) {
    if (a.length !== b.length) { return Infinity; }
    var total = 0;
    for (var i = 0; i < a.length; i++) { total += Math.abs(a[i] - b[i]); }
    return total / a.length;
  }
})();
