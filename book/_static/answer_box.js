/* answer_box.js: the answer boxes under the exercises.
 *
 * Each box (<div class="rm-answer">, written by the {answer-check} directive of
 * book/_ext/try_in_page.py) carries the value rankmetrics computed at build time.
 * This script only compares: RankExplain.grade marks an answer 정답, 반올림 차이 (with
 * the rounding that would make it right) or 오답, by the rules of Worksheet.grade.
 * Answers are kept per page in localStorage; "다시 풀기" clears an exercise.
 * Without scripts the boxes stay hidden and the solutions read as before.
 */
(function () {
  "use strict";
  const R = window.RankExplain;
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
    if (result.verdict === null) text = "수를 적으세요 (예: 0.25)";
    else if (result.verdict === "반올림 차이")
      text = `반올림 차이: ${decimals ? `소수 ${decimals}자리로` : "정수로"} 반올림하면 ${result.rounding}`;
    else if (result.verdict !== "빈칸") text = result.verdict;
    output.textContent = text;
    if (result.verdict && result.verdict !== "빈칸") output.dataset.verdict = result.verdict;
    else delete output.dataset.verdict;
    input.setAttribute("aria-invalid", result.verdict === "오답" || result.verdict === null ? "true" : "false");
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
