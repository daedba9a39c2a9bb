"use strict";
(function () {
  var table = document.getElementById("attempt-table");
  var rows = Array.prototype.slice.call(table.tBodies[0].rows);
  var text = document.getElementById("f-text");
  var selects = {
    solver: document.getElementById("f-solver"),
    verdict: document.getElementById("f-verdict"),
    defect: document.getElementById("f-defect"),
    flag: document.getElementById("f-flag")
  };
  var count = document.getElementById("f-count");
  var empty = document.getElementById("f-empty");

  var noun = count.dataset.noun || "attempts";

  // data-verdict and data-flags hold space-separated names (a sample row has several)
  function words(value) { return value ? value.split(" ") : []; }

  function flagMatches(row, wanted) {
    if (!wanted) return true;
    var flags = words(row.dataset.flags);
    if (wanted === "*") return flags.length > 0;
    if (wanted === "-") return flags.length === 0;
    return flags.indexOf(wanted) >= 0;
  }

  function applyFilters() {
    var terms = text.value.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = 0;
    rows.forEach(function (row) {
      var ok = (!selects.solver.value || row.dataset.solver === selects.solver.value) &&
        (!selects.verdict.value || words(row.dataset.verdict).indexOf(selects.verdict.value) >= 0) &&
        (!selects.defect.value || row.dataset.defect === selects.defect.value) &&
        flagMatches(row, selects.flag.value) &&
        terms.every(function (w) { return row.dataset.text.indexOf(w) >= 0; });
      row.hidden = !ok;
      if (ok) shown += 1;
    });
    count.textContent = shown === rows.length ? rows.length + " " + noun
      : shown + " of " + rows.length + " " + noun;
    empty.hidden = shown !== 0;
  }

  text.addEventListener("input", applyFilters);
  Object.keys(selects).forEach(function (k) {
    selects[k].addEventListener("change", applyFilters);
  });
  document.getElementById("f-reset").addEventListener("click", function () {
    text.value = "";
    Object.keys(selects).forEach(function (k) { selects[k].value = ""; });
    applyFilters();
  });

  function sortBy(th) {
    var col = Array.prototype.indexOf.call(th.parentNode.children, th);
    var numeric = th.dataset.type === "num";
    var dir = th.getAttribute("aria-sort") === "ascending" ? -1 : 1;
    Array.prototype.forEach.call(th.parentNode.children, function (h) {
      h.removeAttribute("aria-sort");
    });
    th.setAttribute("aria-sort", dir === 1 ? "ascending" : "descending");
    var keyed = rows.map(function (row, i) {
      var v = row.cells[col].dataset.sort;
      return { row: row, i: i, v: numeric ? parseFloat(v) : (v || "").toLowerCase() };
    });
    keyed.sort(function (a, b) {
      if (a.v < b.v) return -dir;
      if (a.v > b.v) return dir;
      return a.i - b.i;
    });
    var body = table.tBodies[0];
    keyed.forEach(function (k) { body.appendChild(k.row); });
    rows = keyed.map(function (k) { return k.row; });
  }

  Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {
    if (th.dataset.key) th.addEventListener("click", function () { sortBy(th); });
  });
  table.tBodies[0].addEventListener("click", function (ev) {
    if (ev.target.closest("a")) return;
    var row = ev.target.closest("tr");
    if (row && row.dataset.target) location.hash = "#" + row.dataset.target;
  });

  var current = null;
  function route() {
    var id = decodeURIComponent(location.hash.slice(1));
    var page = /^(attempt|sample)-\d+$/.test(id) ? document.getElementById(id) : null;
    if (current && current !== page) current.hidden = true;
    current = page;
    if (page) {
      page.hidden = false;
      document.body.classList.add("detail");
      window.scrollTo(0, 0);
    } else {
      document.body.classList.remove("detail");
      var target = id && document.getElementById(id);
      if (target) target.scrollIntoView();
    }
  }
  window.addEventListener("hashchange", route);
  route();
  applyFilters();
})();
