// skillgrade report: click a column header to sort the skills table (the table reads without this script).
(function () {
  "use strict";
  var table = document.getElementById("skills");
  if (!table) return;
  var body = table.tBodies[0];
  var heads = table.tHead.rows[0].cells;
  function key(row, i, numeric) {
    var cell = row.cells[i];
    var v = cell.getAttribute("data-v");
    if (v === null) v = cell.textContent;
    return numeric ? parseFloat(v) : v.toLowerCase();
  }
  function sortBy(i) {
    var th = heads[i];
    var numeric = th.getAttribute("data-type") === "num";
    var dir = th.getAttribute("aria-sort") === "ascending" ? -1 : 1;
    for (var k = 0; k < heads.length; k++) heads[k].removeAttribute("aria-sort");
    th.setAttribute("aria-sort", dir === 1 ? "ascending" : "descending");
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = key(a, i, numeric), y = key(b, i, numeric);
      if (numeric) {  // unmeasured (NaN) always last
        if (isNaN(x)) return isNaN(y) ? 0 : 1;
        if (isNaN(y)) return -1;
        return (x - y) * dir;
      }
      return x < y ? -dir : x > y ? dir : 0;
    });
    var frag = document.createDocumentFragment();
    rows.forEach(function (r) { frag.appendChild(r); });
    body.appendChild(frag);
  }
  Array.prototype.forEach.call(heads, function (th, i) {
    var b = th.querySelector("button");
    if (b) b.addEventListener("click", function () { sortBy(i); });
  });
  function openTarget() {  // a link from the table opens that skill's details
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id && document.getElementById(id);
    if (el && el.tagName === "DETAILS") { el.open = true; el.scrollIntoView(); }
  }
  window.addEventListener("hashchange", openTarget);
  openTarget();
})();
