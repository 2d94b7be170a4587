/* answer_box.js: the answer boxes under the exercises.
 *
 * Each box (<div class="rm-answer">, written by the {answer-check} directive of
 * book/_ext/try_in_page.py) carries the value rankmetrics computed at build time.
 * This script only compares: RankExplain.grade marks an answer right, a rounding slip
 * (with the rounding that would make it right) or wrong, by the rules of Worksheet.grade,
 * in the words of the package's catalogue (rankexplain_data.js). Answers are kept per
 * page in localStorage; the reset button clears an exercise.
 * Without scripts the boxes stay hidden and the solutions read as before.
 */
(function () {
  "use strict";
  const R = window.RankExplain;
  const _ = R._;
  const format = R.format;
  const KEY = "rankmetrics-answers:" + location.pathname;

  function load() {
    try {
      return JSON.parse(localStorage.getItem(KEY) || "{}");
    } catch (error) {
      return {};
    }
  }
  function save(state) {
    try {
      if (Object.keys(state).length) localStorage.setItem(KEY, JSON.stringify(state));
      else localStorage.removeItem(KEY);
    } catch (error) {
      /* private mode or storage full: the boxes still work, they just forget */
    }
  }

  function mark(row) {
    const input = row.querySelector("input");
    const output = row.querySelector("output");
    const decimals = Number(row.dataset.decimals);
    const hand = row.dataset.hand === undefined ? null : Number(row.dataset.hand);
    const result = R.grade(input.value, Number(row.dataset.exact), hand, decimals);
    let text = "";
    if (result.key === null) text = format(_("write a number (e.g. {example})"), { example: "0.25" });
    else if (result.key === "slip")
      text = format(_("{verdict}: rounded to {places}, it is {value}"), {
        verdict: result.verdict,
        places: decimals ? format(_("{places} decimals"), { places: decimals }) : _("whole numbers"),
        value: result.rounding,
      });
    else if (result.key !== "blank") text = result.verdict;
    output.textContent = text;
    if (result.key && result.key !== "blank") output.dataset.verdict = result.verdict;
    else delete output.dataset.verdict;
    input.setAttribute("aria-invalid", result.key === "wrong" || result.key === null ? "true" : "false");
  }

  function start() {
    const state = load();
    document.querySelectorAll(".rm-answer").forEach((box) => {
      const form = box.querySelector("form");
      const rows = Array.from(box.querySelectorAll(".rm-answer-row"));
      rows.forEach((row) => {
        const input = row.querySelector("input");
        if (state[input.id] !== undefined) {
          input.value = state[input.id];
          mark(row);
        }
      });
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        const now = load();
        rows.forEach((row) => {
          const input = row.querySelector("input");
          if (input.value.trim()) now[input.id] = input.value.trim();
          else delete now[input.id];
          mark(row);
        });
        save(now);
      });
      box.querySelector(".rm-answer-reset").addEventListener("click", () => {
        const now = load();
        rows.forEach((row) => {
          const input = row.querySelector("input");
          delete now[input.id];
          input.value = "";
          input.removeAttribute("aria-invalid");
          const output = row.querySelector("output");
          output.textContent = "";
          delete output.dataset.verdict;
        });
        save(now);
        rows[0].querySelector("input").focus();
      });
      box.hidden = false;
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
