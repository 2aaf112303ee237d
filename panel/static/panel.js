// sotvet panel: live refresh, instant finding filters, copy button.
// Loaded from /static (the Content-Security-Policy allows no inline script).
"use strict";

(function () {
  var body = document.body;

  // Live: poll the change token twice a second; a change on disk reloads the page
  // (filters live in the URL, so they survive).
  var token = body.dataset.change;
  var live = document.getElementById("live");
  function poll() {
    // no-cache: the browser asks with If-None-Match and the panel answers
    // 304 until the token changes.
    fetch("/api/token", { cache: "no-cache" })
      .then(function (r) { return r.json(); })
      .then(function (j) {
        if (token && j.change !== token) {
          live.textContent = "Live: change on disk, reloading";
          location.reload();
          return;
        }
        live.textContent = "Live: watching the workspace and the runs";
        setTimeout(poll, 500);
      })
      .catch(function () {
        live.textContent = "Live: panel unreachable, retrying";
        setTimeout(poll, 2000);
      });
  }
  setTimeout(poll, 500);

  // Findings: filter the rows as the selects change; the form still
  // submits for a page load without script.
  var form = document.getElementById("filters");
  if (form) {
    var check = document.getElementById("f-check");
    var sev = document.getElementById("f-severity");
    var count = document.getElementById("findings-count");
    var rows = Array.prototype.slice.call(document.querySelectorAll("#findings-table tbody tr"));
    var apply = function () {
      // A page shows one window of many findings: the server filters,
      // counts and pages them all when the form is applied. Not on each
      // change: arrow keys change a select one option at a time.
      if (count.dataset.paged) {
        count.textContent = "Apply the filter to list the findings that match.";
        return;
      }
      var shown = 0;
      rows.forEach(function (tr) {
        var ok = (!check.value || tr.dataset.check === check.value) &&
          (!sev.value || tr.dataset.severity === sev.value);
        tr.hidden = !ok;
        if (ok) { shown++; }
      });
      var q = new URLSearchParams();
      if (check.value) { q.set("check", check.value); }
      if (sev.value) { q.set("severity", sev.value); }
      history.replaceState(null, "", "/findings" + (q.toString() ? "?" + q.toString() : ""));
      count.textContent = "Showing " + shown + " of " + count.dataset.total + " findings.";
    };
    count.dataset.total = String(count.textContent.match(/of (\d+) findings/)[1]);
    check.addEventListener("change", apply);
    sev.addEventListener("change", apply);
  }

  // Copy: the approval text, exactly as shown.
  Array.prototype.forEach.call(document.querySelectorAll("button[data-copy]"), function (btn) {
    btn.addEventListener("click", function () {
      var src = document.getElementById(btn.dataset.copy);
      var status = document.getElementById("copy-status");
      var text = src.textContent;
      var done = function () { status.textContent = "Copied the approval text to the clipboard."; };
      var fallback = function () {
        var range = document.createRange();
        range.selectNodeContents(src);
        var sel = window.getSelection();
        sel.removeAllRanges();
        sel.addRange(range);
        var ok = false;
        try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
        status.textContent = ok ? "Copied the approval text to the clipboard."
          : "Copy failed: the text is selected, press Ctrl+C.";
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(done, fallback);
      } else {
        fallback();
      }
    });
  });
})();
