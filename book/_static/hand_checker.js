/* hand_checker.js: the hand-calculation checker page.
 *
 * Turns <div class="rm-checker"> into a form: a ranked list, a metric and the rounding
 * options in, the step table of `rankmetrics ... --explain` out (through
 * RankExplain, rankexplain.js), and a verdict on the reader's own answer with the
 * place where a hand calculation first parts from the exact value.
 * Without scripts the page keeps its static example. Its words are message ids of the
 * package's catalogue (in _() calls, translated by rankexplain_data.js), its metrics those the
 * registry marks page=True.
 */
(function () {
  "use strict";
  const R = window.RankExplain;
  const _ = R._;
  const format = R.format;

  /** The metrics to choose from: the symbol and the glossary's Korean name (the registration's Reference). */
  const METRIC_NAMES = Object.entries(R.METRICS).map(([name, m]) => [
    name,
    !m.korean ? m.symbol : m.korean.includes(m.symbol) ? m.korean : `${m.symbol} (${m.korean})`,
  ]);

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
      e.rounded !== null
        ? format(_(" · by hand ({places} decimals) {value}"), { places: e.decimals, value: R.handText(e.hand, e.decimals) })
        : "",
    ]);
    out.append(head);
    let said = `${e.label} = ${R.exactText(e.value)}`;
    if (answer) {
      const verdict = answer.verdict;
      const box = el("div", { class: `rm-my-answer rm-verdict-${verdict.key}` }, [
        el("p", {}, [
          el("strong", { text: format(_("my answer {answer}: {verdict}"), { answer: answer.text, verdict: verdict.word }) }),
          verdict.more ? ` — ${verdict.more}` : "",
        ]),
      ]);
      if (e.difference) box.append(el("p", { text: e.difference }));
      else if (verdict.key !== "right")
        box.append(
          el("p", {
            text: _(
              "Every cell of the step table rounds the same as the exact value. Check the last division or the copying."
            ),
          })
        );
      out.append(box);
      said += format(_(". my answer {verdict}"), { verdict: verdict.word });
      if (e.difference) said += `. ${e.difference}`;
    }
    out.append(el("p", { class: "rm-title", text: e.title }));
    if (e.legend) out.append(el("p", { class: "rm-legend", text: e.legend }));
    for (const t of e.tables()) {
      if (t.headers.length) out.append(table(t));
      else out.append(el("p", { class: "rm-section", text: t.title }));
      if (t.lines.length) out.append(el("pre", { class: "rm-lines", text: t.lines.join("\n") }));
    }
    for (const line of e.summary) out.append(el("p", { class: "rm-summary", text: line }));
    out.append(el("p", { class: "rm-card" }, [el("small", { text: e.card })]));
    out.append(
      el("p", { class: "rm-command" }, [_("The same calculation in a terminal:") + " ", el("code", { text: R.commandLine(form) })])
    );
    status.textContent = said;
  }

  function verdictOf(text, e) {
    const result = R.grade(text, e.value, e.rounded, e.decimals);
    if (result.key === null) return { key: "wrong", word: _("not a number"), more: format(_("e.g. {example}"), { example: "0.88" }) };
    if (result.key === "right") return { key: "right", word: result.verdict };
    if (result.key === "slip")
      return {
        key: "slip",
        word: result.verdict,
        more: format(_("rounded to {places}, it is {value}"), {
          places: format(_("{places} decimals"), { places: e.decimals }),
          value: result.rounding,
        }),
      };
    if (result.key === "blank") return null;
    return { key: "wrong", word: result.verdict, more: format(_("the exact value is {value}"), { value: R.exactText(e.value) }) };
  }

  function placesOf(text) {
    const m = /^[+-]?\d*\.(\d+)$/.exec(text.trim());
    return m ? String(Math.min(m[1].length, 15)) : "0";
  }

  function build(root) {
    const example = JSON.parse(root.dataset.example || "{}");
    const form = el("form", { class: "rm-checker-form", "aria-label": _("hand-calculation checker"), novalidate: true });
    const metric = select("metric", METRIC_NAMES);
    const list = input("list", "text", "3 0 3 2 0");
    const relevant = input("relevant", "text", "B D:3 F");
    const k = input("k", "numeric", _("the whole list"));
    const gain = select("gain", [
      ["linear", _("the grade itself (linear)")],
      ["exponential", _("2^grade − 1 (exponential)")],
      ["binary", _("1 if relevant (binary)")],
    ]);
    const ideal = select("ideal", [
      ["auto", _("default (the list's grades for grades, every judgement for item names)")],
      ["judged", _("every judged item (judged)")],
      ["listed", _("only the listed items (listed)")],
    ]);
    const idealGrades = input("idealGrades", "text", "3 3 2 1");
    const decimals = input("decimals", "numeric", _("none"));
    const discount = input("discountDecimals", "numeric", _("as the decimals"));
    const answer = input("answer", "decimal", format(_("e.g. {example}"), { example: "0.910" }));
    const wide = { "data-wide": "" };
    const fields = {
      metric: field("rmc-metric", _("metric"), metric, null, wide),
      list: field(
        "rmc-list",
        _("ranked list (from rank 1)"),
        list,
        _("Grades 3 0 3 2 0, O/X as O X O X O, or item names A B C D E, separated by spaces."),
        wide
      ),
      relevant: field(
        "rmc-relevant",
        _("relevant items (when writing item names)"),
        relevant,
        _("name:grade; without a grade, 1 (e.g. B D:3 F). Left empty, the list reads as grades."),
        wide
      ),
      k: field("rmc-k", _("k (cutoff)"), k),
      gain: field("rmc-gain", _("gain"), gain),
      ideal: field("rmc-ideal", _("ideal ordering"), ideal, null, wide),
      idealGrades: field(
        "rmc-ideal-grades",
        _("grades of every judged item"),
        idealGrades,
        _(
          "When choosing 'every judged item' in the grades form: every grade, relevant items outside the list included (e.g. 3 3 2 1)."
        ),
        wide
      ),
      decimals: field("rmc-decimals", _("decimals of the hand calculation"), decimals, _("0–15. Left empty, only the exact value is shown.")),
      discount: field("rmc-discount", _("decimals of the discount table"), discount, _("To round log2(rank+1) separately (e.g. 1).")),
      answer: field(
        "rmc-answer",
        _("my answer (optional)"),
        answer,
        _("Type the value you got by hand to see whether it is right, and where it parted."),
        wide
      ),
    };
    const button = el("button", { type: "submit", class: "rm-button", text: _("Calculate") });
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
        error.replaceChildren(el("p", { class: "rm-error", text: format(_("error: {message}"), { message: result.error }) }));
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
