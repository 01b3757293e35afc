// layout.js, appended to a report's page by TestReportLayoutInBrowser,
// measures the page as the browser laid it out and prints what is wrong
// between two LAYOUT marks as JSON: a table cell past the right edge of
// the window outside a box that scrolls, a chart's text that leaves its
// chart or overprints another.
(function () {
  var out = [], W = document.documentElement.clientWidth, tol = 0.5;
  function scrolls(el) {
    for (var p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      var x = getComputedStyle(p).overflowX;
      if ((x === "auto" || x === "scroll") && p.getBoundingClientRect().right <= W + tol) return true;
    }
    return false;
  }
  document.querySelectorAll("td, th").forEach(function (c) {
    var r = c.getBoundingClientRect();
    if (r.width > 0 && r.right > W + tol && !scrolls(c)) out.push("cell past the page edge (" + Math.round(r.right) + " > " + W + " px): " + c.textContent.slice(0, 40));
  });
  // ink is where a text's glyphs can be: from its baseline, along its
  // advance, from the descent (0.22 em) to the ascent (0.75 em) of
  // Liberation Sans, the charts' font, whichever way it is turned. The
  // browser's own box of a text is its line box, taller than its ink.
  function ink(svg, t) {
    var m = t.getScreenCTM(), fs = parseFloat(getComputedStyle(t).fontSize), p = svg.createSVGPoint();
    p.x = t.x.baseVal.length ? t.x.baseVal[0].value : 0;
    p.y = t.y.baseVal.length ? t.y.baseVal[0].value : 0;
    var q = p.matrixTransform(m), len = t.getComputedTextLength(), xs = [], ys = [];
    [0, len].forEach(function (u) {
      [-0.22 * fs, 0.75 * fs].forEach(function (v) {
        xs.push(q.x + u * m.a - v * m.c);
        ys.push(q.y + u * m.b - v * m.d);
      });
    });
    return {left: Math.min.apply(null, xs), right: Math.max.apply(null, xs), top: Math.min.apply(null, ys), bottom: Math.max.apply(null, ys)};
  }
  document.querySelectorAll("figure.chart svg").forEach(function (svg) {
    var b = svg.getBoundingClientRect(), id = svg.closest("figure").id;
    var ts = Array.prototype.slice.call(svg.querySelectorAll("text")).filter(function (t) { return t.textContent.trim() !== ""; });
    var rs = ts.map(function (t) { return ink(svg, t); });
    rs.forEach(function (r, i) {
      if (r.left < b.left - tol || r.right > b.right + tol || r.top < b.top - tol || r.bottom > b.bottom + tol) out.push(id + ": label leaves the chart: " + ts[i].textContent);
      for (var j = i + 1; j < rs.length; j++) {
        var q = rs[j], dx = Math.min(r.right, q.right) - Math.max(r.left, q.left), dy = Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top);
        if (dx > tol && dy > tol) out.push(id + ": labels overlap: " + ts[i].textContent + " / " + ts[j].textContent);
      }
    });
  });
  var pre = document.createElement("pre");
  pre.id = "gobench-layout";
  pre.textContent = "LAYOUT" + JSON.stringify({width: W, problems: out}) + "LAYOUT";
  document.body.appendChild(pre);
})();
