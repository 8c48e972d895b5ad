// The report's only script (inline: no network). Without it the page reads the same, with
// every step listed and every picture fitted to the page's width.
//
// Step through a trace or a difference: each .stepper (the steps of a counterexample, each
// with its picture) and each run of two or more pictures side by side (the readings of an
// open question) shows one step at a time, with previous / next buttons and the arrow keys.
(function () {
  function stepper(box, steps) {
    if (steps.length < 2 || box.dataset.stepping) { return; }
    box.dataset.stepping = "1";
    box.classList.add("stepping");
    box.tabIndex = 0;
    var bar = document.createElement("div");
    bar.className = "stepbar";
    bar.innerHTML = '<button type="button" data-go="-1" aria-label="previous step">◀ previous</button>' +
      '<span class="where" aria-live="polite"></span>' +
      '<button type="button" data-go="1" aria-label="next step">next ▶</button>' +
      '<button type="button" data-go="all" class="all">show all</button>';
    box.insertBefore(bar, steps[0]);
    var at = 0, all = false;
    function show(k) {
      at = Math.max(0, Math.min(steps.length - 1, k));
      steps.forEach(function (s, i) { s.hidden = !all && i !== at; s.classList.toggle("current", i === at); });
      var label = steps[at].getAttribute("data-label") || "";
      bar.querySelector(".where").textContent = all ? steps.length + " steps" :
        (at + 1) + " of " + steps.length + (label ? ": " + label : "");
      bar.querySelector('[data-go="-1"]').disabled = all || at === 0;
      bar.querySelector('[data-go="1"]').disabled = all || at === steps.length - 1;
      bar.querySelector(".all").textContent = all ? "one at a time" : "show all";
    }
    bar.addEventListener("click", function (e) {
      var go = e.target.getAttribute("data-go");
      if (go === "all") { all = !all; show(at); } else if (go) { show(at + Number(go)); }
    });
    box.addEventListener("keydown", function (e) {
      if (e.target.tagName === "BUTTON" && (e.key === "Enter" || e.key === " ")) { return; }
      var to = {ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: steps.length - 1}[e.key];
      if (to !== undefined) { all = false; show(to); e.preventDefault(); }
    });
    show(Number(box.getAttribute("data-start") || steps.length - 1));
  }
  document.querySelectorAll(".stepper").forEach(function (box) {
    stepper(box, Array.prototype.slice.call(box.querySelectorAll(":scope > .step")));
  });
  // pictures that follow one another in one place: the readings of a difference
  var seen = new Set();
  document.querySelectorAll("figure.picture").forEach(function (fig) {
    var parent = fig.parentElement;
    if (seen.has(parent) || parent.closest(".stepper")) { return; }
    seen.add(parent);
    var run = [];
    Array.prototype.forEach.call(parent.children, function (el) {
      if (el.matches("figure.picture")) { run.push(el); return; }
      group(run); run = [];
    });
    group(run);
  });
  function group(run) {
    if (run.length < 2) { return; }
    var box = document.createElement("div");
    box.className = "stepper";
    run[0].parentElement.insertBefore(box, run[0]);
    run.forEach(function (fig) {
      fig.classList.add("step");
      var cap = fig.querySelector("figcaption");
      if (cap && !fig.getAttribute("data-label")) {
        var words = cap.cloneNode(true), link = words.querySelector(".legend-link");
        if (link) { link.remove(); }
        var text = words.textContent.trim(), dash = text.lastIndexOf("— ");
        fig.setAttribute("data-label", dash >= 0 ? text.slice(dash + 2) : "");
      }
      box.appendChild(fig);
    });
    box.setAttribute("data-start", "0");
    stepper(box, run);
  }
})();

// On a narrow screen a tapped picture is shown at its own size (scroll it sideways); a
// second tap fits it to the page again.
document.addEventListener("click", function (e) {
  var svg = e.target.closest && e.target.closest("figure.picture svg");
  if (svg && window.matchMedia("(max-width: 600px)").matches) {
    svg.closest("figure.picture").classList.toggle("zoomed");
  }
});
