"use strict";
(function () {
  var body = document.body;
  var sheet = body.getAttribute("data-sheet-id");
  var runHash = body.getAttribute("data-run-hash");
  var store = "truepass-review-" + sheet;
  var entries = Array.prototype.slice.call(document.querySelectorAll("section.entry"));
  var saved = {};
  try { saved = JSON.parse(window.localStorage.getItem(store) || "{}") || {}; } catch (e) { saved = {}; }

  function labelsNow() {
    var out = [];
    entries.forEach(function (sec) {
      var chosen = sec.querySelector("input[type=radio]:checked");
      if (!chosen) { return; }
      out.push({ key: sec.getAttribute("data-key"), label: chosen.value,
                 note: sec.querySelector("textarea").value });
    });
    return out;
  }

  function refresh() {
    var labels = labelsNow();
    var byKey = {};
    labels.forEach(function (l) { byKey[l.key] = l; });
    entries.forEach(function (sec) {
      sec.classList.toggle("done", Boolean(byKey[sec.getAttribute("data-key")]));
      sec.querySelectorAll(".labels label").forEach(function (lab) {
        lab.classList.toggle("chosen", lab.querySelector("input").checked);
      });
    });
    document.getElementById("progress").textContent = labels.length + " of " + entries.length + " labelled";
    try { window.localStorage.setItem(store, JSON.stringify(byKey)); } catch (e) { /* file: without storage */ }
  }

  entries.forEach(function (sec) {
    var old = saved[sec.getAttribute("data-key")];
    if (old) {
      var input = sec.querySelector("input[value='" + old.label + "']");
      if (input) { input.checked = true; }
      sec.querySelector("textarea").value = old.note || "";
    }
    sec.addEventListener("change", refresh);
    sec.addEventListener("input", refresh);
  });

  document.getElementById("download").addEventListener("click", function () {
    var data = {
      format: "truepass-review-labels/1",
      sheet_id: sheet,
      run_hash: runHash,
      reviewer: document.getElementById("reviewer").value,
      labels: labelsNow()
    };
    var blob = new Blob([JSON.stringify(data, null, 2) + "\n"], { type: "application/json" });
    var a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = "labels-" + sheet + ".json";
    document.body.appendChild(a);
    a.click();
    setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
  });
  refresh();
})();
