// The "odds for these values" link beside each procedure form: when followed, it carries the
// form's current values (the parameters and the target), so the odds page answers for them.
// Without JavaScript the link opens the odds page's own form for the procedure.
"use strict";
document.addEventListener("click", function (event) {
  var link = event.target.closest ? event.target.closest("a.odds-link") : null;
  if (!link) { return; }
  var form = link.closest("form");
  if (!form) { return; }
  var query = new URLSearchParams();
  query.set("system", form.dataset.system);
  query.set("procedure", form.querySelector("input[name=procedure]").value);
  if (form.dataset.target) { query.set("target", form.dataset.target); }
  Array.prototype.forEach.call(form.elements, function (field) {
    if (field.name && field.name.indexOf("p.") === 0 && field.value !== "") {
      query.set(field.name, field.value);
    }
  });
  link.href = link.href.split("?")[0] + "?" + query.toString();  // the page's own odds route (under /c/NAME/ when hosted)
});
