/* The builder by keyboard: "/" focuses the card search, Enter in it adds the first card
   found once the results match what is typed (before that, Enter searches). */
(function () {
  function typing(target) {
    return target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
  }
  document.addEventListener("keydown", function (event) {
    if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    var search = document.getElementById("picker-q");
    if (!search) return;
    event.preventDefault();
    search.focus();
    search.select();
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" || !event.target || event.target.id !== "picker-q") return;
    var results = document.getElementById("picker-results");
    if (!results || results.dataset.q !== event.target.value) return;  // not searched yet
    var first = results.querySelector(".pick .pick-add:not([disabled])");
    if (!first) return;
    event.preventDefault();
    first.click();
  });
})();
