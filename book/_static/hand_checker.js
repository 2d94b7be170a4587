/* hand_checker.js: the 손 계산 확인기 page.
 *
 * Turns <div class="rm-checker"> into a form: a ranked list, a metric and the rounding
 * options in, the step table of `rankmetrics ... --explain` out (through
 * RankExplain, rankexplain.js), and a verdict on the reader's own answer with the
 * place where a hand calculation first parts from the exact value.
 * Without scripts the page keeps its static example.
 */
(function () {
  "use strict";
  const R = window.RankExplain;

  const METRIC_NAMES = [
    ["ndcg", "nDCG (정규화 할인 누적 이득)"],
    ["dcg", "DCG (할인 누적 이득)"],
    ["precision", "P (정밀도)"],
    ["recall", "R (재현율)"],
    ["f1", "F1"],
    ["hit_rate", "HR (적중률)"],
    ["reciprocal_rank", "RR (역순위)"],
    ["average_precision", "AP (평균 정밀도)"],
    ["mean_rank", "MR (평균 순위)"],
  ];

  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "text") node.textContent = value;
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children || []) node.append(child);
    return node;
  }

  function field(id, label, control, hint, extra) {
    const hintId = hint ? id + "-hint" : null;
    if (hintId) control.setAttribute("aria-describedby", hintId);
    control.id = id;
    return el("div", Object.assign({ class: "rm-field" }, extra || {}), [
      el("label", { for: id, text: label }),
      control,
      hint ? el("p", { class: "rm-hint", id: hintId, text: hint }) : "",
    ]);
  }
  function input(name, mode, placeholder) {
    return el("input", {
      type: "text",
      name,
      inputmode: mode,
      autocomplete: "off",
      autocapitalize: "off",
      spellcheck: "false",
      placeholder,
    });
  }
  function select(name, options) {
    return el(
      "select",
      { name },
      options.map(([value, text]) => el("option", { value, text }))
    );
  }

  function table(t) {
    const head = el("thead", {}, [el("tr", {}, t.headers.map((h) => el("th", { scope: "col", text: h })))]);
    const body = el(
      "tbody",
      {},
      t.cells.map((row) =>
        el(
          "tr",
          {},
          row.map((text, i) => el("td", { class: t.aligns[i] === "left" ? "rm-left" : "rm-right", text }))
        )
      )
    );
    const wrap = el("div", { class: "rm-scroll", tabindex: "0", role: "region", "aria-label": t.title }, [
      el("table", { class: "rm-steps" }, [el("caption", { text: t.title }), head, body]),
    ]);
    return wrap;
  }

  function render(out, status, e, form, answer) {
    out.replaceChildren();
    const head = el("p", { class: "rm-result" }, [
      el("strong", { text: `${e.label} = ${R.exactText(e.value)}` }),
      e.rounded !== null ? ` · 손 계산 (소수 ${e.decimals}자리) ${R.handText(e.hand, e.decimals)}` : "",
    ]);
    out.append(head);
    let said = `${e.label} = ${R.exactText(e.value)}`;
    if (answer) {
      const verdict = answer.verdict;
      const box = el("div", { class: `rm-my-answer rm-verdict-${verdict.key}` }, [
        el("p", {}, [el("strong", { text: `내 답 ${answer.text}: ${verdict.word}` }), verdict.more ? ` — ${verdict.more}` : ""]),
      ]);
      if (e.difference) box.append(el("p", { text: e.difference }));
      else if (verdict.key !== "right") box.append(el("p", { text: "단계표의 모든 칸이 정확한 값과 같게 반올림됩니다. 마지막 나눗셈이나 옮겨 적기를 확인해 보세요." }));
      out.append(box);
      said += `. 내 답 ${verdict.word}`;
      if (e.difference) said += `. ${e.difference}`;
    }
    out.append(el("p", { class: "rm-title", text: `${e.label} 단계표` }));
    if (e.legend) out.append(el("p", { class: "rm-legend", text: e.legend }));
    for (const t of e.tables()) {
      if (t.headers.length) out.append(table(t));
      else out.append(el("p", { class: "rm-section", text: t.title }));
      if (t.lines.length) out.append(el("pre", { class: "rm-lines", text: t.lines.join("\n") }));
    }
    for (const line of e.summary) out.append(el("p", { class: "rm-summary", text: line }));
    out.append(el("p", { class: "rm-card" }, [el("small", { text: e.card })]));
    out.append(el("p", { class: "rm-command" }, ["같은 계산을 터미널에서: ", el("code", { text: R.commandLine(form) })]));
    status.textContent = said;
  }

  function verdictOf(text, e) {
    const result = R.grade(text, e.value, e.rounded, e.decimals);
    if (result.verdict === null) return { key: "wrong", word: "수가 아닙니다", more: "예: 0.88" };
    if (result.verdict === "정답") return { key: "right", word: "정답" };
    if (result.verdict === "반올림 차이")
      return { key: "slip", word: "반올림 차이", more: `소수 ${e.decimals}자리로 반올림하면 ${result.rounding}` };
    if (result.verdict === "빈칸") return null;
    return { key: "wrong", word: "오답", more: `정확한 값은 ${R.exactText(e.value)}` };
  }

  function placesOf(text) {
    const m = /^[+-]?\d*\.(\d+)$/.exec(text.trim());
    return m ? String(Math.min(m[1].length, 15)) : "0";
  }

  function build(root) {
    const example = JSON.parse(root.dataset.example || "{}");
    const form = el("form", { class: "rm-checker-form", "aria-label": "손 계산 확인기", novalidate: true });
    const metric = select("metric", METRIC_NAMES);
    const list = input("list", "text", "3 0 3 2 0");
    const relevant = input("relevant", "text", "B D:3 F");
    const k = input("k", "numeric", "목록 전체");
    const gain = select("gain", [
      ["linear", "등급 그대로 (linear)"],
      ["exponential", "2^등급 − 1 (exponential)"],
      ["binary", "관련이면 1 (binary)"],
    ]);
    const ideal = select("ideal", [
      ["auto", "기본 (등급이면 목록 안, 항목이면 판정 전부)"],
      ["judged", "판정된 모든 항목 (judged)"],
      ["listed", "목록 안의 항목만 (listed)"],
    ]);
    const idealGrades = input("idealGrades", "text", "3 3 2 1");
    const decimals = input("decimals", "numeric", "없음");
    const discount = input("discountDecimals", "numeric", "소수 자리와 같게");
    const answer = input("answer", "decimal", "예: 0.910");
    const fields = {
      metric: field("rmc-metric", "지표", metric, null, { "data-wide": "" }),
      list: field("rmc-list", "순위 목록 (1위부터)", list, "등급 3 0 3 2 0, O/X로 O X O X O, 또는 항목 이름 A B C D E를 띄어 적습니다.", { "data-wide": "" }),
      relevant: field("rmc-relevant", "정답 항목 (항목 이름으로 적을 때)", relevant, "이름:등급, 등급을 빼면 1 (예: B D:3 F). 비워 두면 목록을 등급으로 읽습니다.", { "data-wide": "" }),
      k: field("rmc-k", "k (컷오프)", k),
      gain: field("rmc-gain", "이득", gain),
      ideal: field("rmc-ideal", "이상적 순서", ideal, null, { "data-wide": "" }),
      idealGrades: field("rmc-ideal-grades", "판정된 모든 항목의 등급", idealGrades, "등급 형태에서 '판정된 모든 항목'을 고를 때: 목록 밖 정답까지 모든 등급 (예: 3 3 2 1).", { "data-wide": "" }),
      decimals: field("rmc-decimals", "손 계산 소수 자리", decimals, "0–15. 비우면 정확한 값만 봅니다."),
      discount: field("rmc-discount", "할인표 소수 자리", discount, "log2(순위+1)를 따로 반올림할 때 (예: 1)."),
      answer: field("rmc-answer", "내 답 (선택)", answer, "손으로 얻은 값을 적으면 맞는지, 어디서 갈라졌는지 알려 줍니다.", { "data-wide": "" }),
    };
    const button = el("button", { type: "submit", class: "rm-button", text: "계산" });
    form.append(...Object.values(fields), el("p", { class: "rm-actions" }, [button]));
    const status = el("p", { class: "rm-status", role: "status", "aria-live": "polite" });
    const out = el("div", { class: "rm-checker-out" });
    const error = el("div", { class: "rm-error-box", "aria-live": "assertive" });

    metric.value = example.metric || "ndcg";
    list.value = example.list || "";
    decimals.value = example.decimals || "";

    function values() {
      return {
        metric: metric.value,
        list: list.value,
        relevant: relevant.value,
        k: k.value,
        gain: gain.value,
        ideal: ideal.value,
        idealGrades: idealGrades.value,
        decimals: decimals.value,
        discountDecimals: discount.value,
        answer: answer.value,
      };
    }

    function showFields() {
      const family = R.METRICS[metric.value].family;
      fields.gain.hidden = family !== "dcg";
      fields.discount.hidden = family !== "dcg";
      fields.ideal.hidden = metric.value !== "ndcg";
      fields.idealGrades.hidden = metric.value !== "ndcg" || ideal.value !== "judged" || relevant.value.trim() !== "";
    }

    function update() {
      showFields();
      const v = values();
      const typed = v.answer.trim();
      const form = Object.assign({}, v);
      if (typed && !v.decimals.trim()) form.decimals = placesOf(typed);
      if (!R.METRICS[v.metric].family || R.METRICS[v.metric].family !== "dcg") form.discountDecimals = "";
      const result = R.fromForm(form);
      if (result.error !== undefined) {
        out.replaceChildren();
        error.replaceChildren(el("p", { class: "rm-error", text: "오류: " + result.error }));
        status.textContent = "";
        return;
      }
      error.replaceChildren();
      const e = result.explanation;
      const verdict = typed ? verdictOf(typed, e) : null;
      render(out, status, e, form, verdict ? { text: typed, verdict } : null);
      root.dataset.value = String(e.value);
    }

    let timer = null;
    form.addEventListener("input", () => {
      showFields();
      clearTimeout(timer);
      timer = setTimeout(update, 250);
    });
    form.addEventListener("change", update);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      clearTimeout(timer);
      update();
    });

    root.replaceChildren(form, error, status, out);
    root.classList.add("rm-ready");
    root.rmUpdate = update; // for the browser tests: compute now, without waiting for the debounce
    update();
  }

  function start() {
    document.querySelectorAll(".rm-checker").forEach(build);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
