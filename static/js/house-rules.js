// House rules on the start and saved-ruleset pages: each option row knows the preset's own
// value (data-preset-value); when what is chosen differs, the row says "House rule". The page
// works the same without this script (the server marks the rows when it shows the form again).
"use strict";
(function () {
  function numbers(text) {
    return (text.match(/\d+/g) || []).join(",");
  }

  function shown(row) {
    const inputs = Array.from(row.querySelectorAll("input, select"));
    const radio = inputs.filter((input) => input.type === "radio");
    if (radio.length) {
      const checked = radio.find((input) => input.checked);
      return checked ? checked.value : "";
    }
    const field = inputs[0];
    if (!field) return "";
    return field.type === "text" ? numbers(field.value) : field.value;
  }

  function mark(row) {
    const own = row.dataset.presetValue || "";
    const text = row.querySelector("input[type=text]") ? numbers(own) : own;
    const changed = shown(row) !== text;
    row.classList.toggle("is-house-rule", changed);
    const badge = row.querySelector(".house-rule-mark");
    if (badge) badge.hidden = !changed;
  }

  function start() {
    document.querySelectorAll(".option-row[data-preset-value]").forEach((row) => {
      row.addEventListener("input", () => mark(row));
      row.addEventListener("change", () => mark(row));
      mark(row);
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
