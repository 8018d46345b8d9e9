/* Dark mode and the compact phone menu. The theme follows the system setting until the
   reader picks one with the header's toggle (kept in localStorage). Loaded in <head> so the
   page never flashes the wrong theme; everything works without it (light or system theme,
   menu open). */
(function () {
  var root = document.documentElement;
  var KEY = "citadel-theme";
  var stored = null;
  try { stored = localStorage.getItem(KEY); } catch (e) { /* storage off */ }
  if (stored === "dark" || stored === "light") root.setAttribute("data-theme", stored);

  function isDark() {
    var chosen = root.getAttribute("data-theme");
    if (chosen) return chosen === "dark";
    return window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
  }

  document.addEventListener("DOMContentLoaded", function () {
    var toggle = document.querySelector(".theme-toggle");
    if (toggle) {
      var label = function () {
        var dark = isDark();
        toggle.querySelector(".theme-label").textContent =
          dark ? toggle.dataset.labelLight : toggle.dataset.labelDark;
      };
      toggle.hidden = false;
      label();
      toggle.addEventListener("click", function () {
        var next = isDark() ? "light" : "dark";
        root.setAttribute("data-theme", next);
        try { localStorage.setItem(KEY, next); } catch (e) { /* storage off */ }
        label();
      });
    }
    // The menu is open in the HTML (it works without JavaScript); fold it on narrow screens.
    var menu = document.querySelector(".site-menu");
    if (menu && window.matchMedia("(max-width: 48rem)").matches) menu.open = false;
  });
})();
