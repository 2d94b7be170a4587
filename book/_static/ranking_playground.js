/* ranking_playground.js: a ranked list of cards to play with.
 *
 * Enhances <div class="rm-playground" data-config='{"grades": [...], "k": 5, "graded": false, "relevant": 4}'>
 * (the {ranking-playground} directive of book/_ext/try_in_page.py). "relevant" is the query's total
 * number of relevant items R, those outside the list too (default: the relevant cards); a field
 * under the cards changes it. R@k, AP@k and nDCG@k divide by all R of them, as the package does
 * (n_relevant=R, and an ideal ordering with the unlisted ones at grade 1). A click on a card
 * toggles relevant / not relevant (or cycles the grades 0-3); the ▲/▼ buttons, the arrow keys on a
 * focused card, or dragging the handle move it. P@k, R@k, RR, AP@k and nDCG@k, and a bar
 * for each rank's share of nDCG@k, are computed with RankExplain (rankexplain.js, the
 * tested port of rankmetrics). Without scripts the page shows the list and its values.
 * Its words are message ids of the package's catalogue (in _() calls; rankexplain_data.js);
 * a metric's Korean name is its registration's (the glossary's).
 */
(function () {
  "use strict";
  const R = window.RankExplain;
  const _ = R._;
  const format = R.format;
  // The values under the cards, and whether each is followed by its name (nDCG's is long).
  const METRICS = [
    ["precision", true],
    ["recall", true],
    ["reciprocal_rank", true],
    ["average_precision", true],
    ["ndcg", false],
  ].map(([metric, named]) => [metric, named ? R.DATA.metrics[metric].korean : ""]);

  /**
   * The step tables of the five metrics for cards [{name, grade}] in ranked order, cut at k, when
   * the query has `total` relevant items in all. With relevant items outside the list they are
   * judged items the list does not show (named ?1, ?2, ...; grade 1), so the port reads the list
   * as item names with judgements, the form in which R counts every judged relevant item.
   */
  function explainAll(cards, k, total) {
    const listed = cards.filter((c) => c.grade > 0);
    const unlisted = Math.max(0, total - listed.length);
    const out = {};
    for (const [metric] of METRICS) {
      if (unlisted === 0) {
        out[metric] = R.explain(metric, cards.map((c) => c.grade), { int: String(k) }, {});
      } else {
        const judged = new Map(listed.map((c) => [c.name, c.grade]));
        for (let i = 1; i <= unlisted; i++) judged.set(`?${i}`, 1);
        const relevant = { grades: judged, mapping: true };
        out[metric] = R.explain(metric, cards.map((c) => c.name), { int: String(k) }, { relevant });
      }
    }
    return out;
  }

  /** The values a playground starts from: metric -> value (what the page shows before a click). */
  function startValues(config) {
    const cards = config.grades.map((grade, i) => ({ name: String.fromCharCode(65 + i), grade }));
    const k = Math.min(config.k, cards.length);
    const total = Math.max(config.relevant || 0, cards.filter((c) => c.grade > 0).length);
    const results = explainAll(cards, k, total);
    return Object.fromEntries(METRICS.map(([m]) => [m, results[m].value]));
  }

  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined) continue;
      if (key === "text") node.textContent = value;
      else node.setAttribute(key, value);
    }
    for (const child of children || []) node.append(child);
    return node;
  }

  function build(root) {
    const config = JSON.parse(root.dataset.config);
    const start = config.grades.map((grade, i) => ({ name: String.fromCharCode(65 + i), grade }));
    let cards = start.map((c) => Object.assign({}, c));
    const k = Math.min(config.k, cards.length);
    const top = config.graded ? 3 : 1;
    const inList = () => cards.filter((c) => c.grade > 0).length;
    const startTotal = Math.max(config.relevant || 0, inList());
    let total = startTotal;

    const help = el("p", {
      class: "rm-hint",
      id: `${root.id}-help`,
      text:
        (config.graded
          ? _("Click a card to cycle its grade 0→1→2→3→0.")
          : _("Click a card to switch it between relevant and not relevant.")) +
        " " +
        _(
          "Move a card with the ▲/▼ buttons, the ↑/↓ keys on the card, or by dragging the ⠿ handle. " +
            "Below the dotted line is outside the top k."
        ),
    });
    const list = el("ol", { class: "rm-cards", "aria-describedby": help.id });
    const values = el("ul", { class: "rm-values" });
    const status = el("p", { class: "rm-status", role: "status", "aria-live": "polite" });
    const reset = el("button", { type: "button", text: _("Start again") });
    const MOST = 1000; // R's upper bound here: each unlisted relevant item is one judged item to rank
    const totalInput = el("input", {
      type: "number",
      min: "0",
      max: String(MOST),
      step: "1",
      inputmode: "numeric",
      id: `${root.id}-total`,
    });
    const totalField = el("p", { class: "rm-total" }, [
      el("label", { for: totalInput.id, text: _("each query's total number of relevant items R") + " " }),
      totalInput,
    ]);
    const totalNote = el("span", { class: "rm-hint" });
    totalField.append(" ", totalNote);

    function grades() {
      return cards.map((c) => c.grade);
    }
    function word(grade) {
      if (!config.graded) return grade > 0 ? _("is relevant") : _("not relevant");
      return grade > 0 ? format(_("grade {grade}"), { grade }) : _("not relevant (0)");
    }

    function compute() {
      total = Math.max(total, inList()); // the list cannot hold more relevant items than there are
      return explainAll(cards, k, total);
    }

    function render(focusIndex) {
      const results = compute();
      const nd = results.ndcg;
      const idcg = nd.idealRows.reduce((sum, row) => sum + row.term, 0);
      list.replaceChildren();
      cards.forEach((card, i) => {
        const rank = i + 1;
        const inTop = rank <= k;
        const share = inTop && idcg > 0 ? nd.rows[i].term / idcg : 0;
        const label =
          format(_("rank {rank}: item {name}, {state}"), { rank, name: card.name, state: word(card.grade) }) +
          (inTop
            ? format(_(", {share} of nDCG@{k}"), { share: R.exactText(share), k })
            : format(_(", outside the top {k}"), { k }));
        const button = el(
          "button",
          {
            type: "button",
            class: "rm-card-item",
            "data-grade": String(card.grade),
            "data-index": String(i),
            "aria-label": label,
          },
          [
            el("span", { text: format(_("item {name}"), { name: card.name }) }),
            el("span", { class: "rm-grade", text: word(card.grade) }),
          ]
        );
        const bar = el("div", {
          class: "rm-bar",
          style: `width: ${(share * 100).toFixed(1)}%`,
          "aria-hidden": "true",
          title: format(_("{share} of nDCG@{k}"), { share: R.exactText(share), k }),
        });
        const handle = el("span", { class: "rm-handle", "aria-hidden": "true", text: "⠿" });
        const up = el("button", { type: "button", "aria-label": format(_("move item {name} up"), { name: card.name }), text: "▲" });
        const down = el("button", {
          type: "button",
          "aria-label": format(_("move item {name} down"), { name: card.name }),
          text: "▼",
        });
        up.disabled = i === 0;
        down.disabled = i === cards.length - 1;
        up.addEventListener("click", () => move(i, i - 1, "up"));
        down.addEventListener("click", () => move(i, i + 1, "down"));
        button.addEventListener("click", () => toggle(i));
        button.addEventListener("keydown", (event) => {
          if (event.key === "ArrowUp" && i > 0) {
            event.preventDefault();
            move(i, i - 1, "card");
          } else if (event.key === "ArrowDown" && i < cards.length - 1) {
            event.preventDefault();
            move(i, i + 1, "card");
          }
        });
        handle.addEventListener("pointerdown", (event) => drag(event, i));
        const body = el("div", { class: "rm-card-body" }, [button, bar]);
        const row = el("li", { class: "rm-card-row" + (rank === k + 1 ? " rm-cut" : "") }, [
          el("span", { class: "rm-rank", text: `${rank}` }),
          el("div", { class: "rm-card-main" }, [handle, body]),
          el("span", { class: "rm-move" }, [up, down]),
        ]);
        list.append(row);
      });
      values.replaceChildren(
        ...METRICS.map(([metric, name]) => {
          const e = results[metric];
          return el("li", { "data-metric": metric }, [
            el("span", { text: `${e.label}${name ? ` (${name})` : ""}` }),
            el("strong", { text: R.exactText(e.value) }),
          ]);
        })
      );
      totalInput.value = String(total);
      totalInput.min = String(inList());
      totalNote.textContent = format(_("There are {relevant} relevant items in all (outside the list: {unlisted})."), {
        relevant: total,
        unlisted: total - inList(),
      });
      root.dataset.relevant = String(total);
      root.dataset.grades = JSON.stringify(grades());
      root.dataset.values = JSON.stringify(Object.fromEntries(METRICS.map(([m]) => [m, results[m].value])));
      if (focusIndex !== undefined) {
        const target = focusIndex.kind === "card" ? list.querySelectorAll(".rm-card-item")[focusIndex.at] : null;
        const moveButton =
          focusIndex.kind === "up" || focusIndex.kind === "down"
            ? list.querySelectorAll(".rm-card-row")[focusIndex.at].querySelector(
                focusIndex.kind === "up" ? ".rm-move button:first-child" : ".rm-move button:last-child"
              )
            : null;
        const focus = target || (moveButton && !moveButton.disabled ? moveButton : list.querySelectorAll(".rm-card-item")[focusIndex.at]);
        if (focus) focus.focus();
      }
      return results;
    }

    function say(text, results) {
      status.textContent = `${text}. nDCG@${k} ${R.exactText(results.ndcg.value)}, AP@${k} ${R.exactText(results.average_precision.value)}`;
    }
    function toggle(i) {
      cards[i].grade = cards[i].grade >= top ? 0 : cards[i].grade + 1;
      say(
        format(_("rank {rank}, item {name}: {state}"), { rank: i + 1, name: cards[i].name, state: word(cards[i].grade) }),
        render({ kind: "card", at: i })
      );
    }
    function move(from, to, kind) {
      if (to < 0 || to >= cards.length || from === to) return;
      const [card] = cards.splice(from, 1);
      cards.splice(to, 0, card);
      say(format(_("moved item {name} to rank {rank}"), { name: card.name, rank: to + 1 }), render({ kind, at: to }));
    }
    function drag(event, from) {
      event.preventDefault();
      const rows = Array.from(list.querySelectorAll(".rm-card-row"));
      rows[from].classList.add("rm-dragging");
      const handle = event.currentTarget;
      handle.setPointerCapture(event.pointerId);
      let to = from;
      const onMove = (e) => {
        to = rows.findIndex((row) => e.clientY < row.getBoundingClientRect().bottom);
        if (to < 0) to = rows.length - 1;
      };
      const onUp = () => {
        handle.removeEventListener("pointermove", onMove);
        handle.removeEventListener("pointerup", onUp);
        handle.removeEventListener("pointercancel", onUp);
        rows[from].classList.remove("rm-dragging");
        if (to !== from) move(from, to, "card");
      };
      handle.addEventListener("pointermove", onMove);
      handle.addEventListener("pointerup", onUp);
      handle.addEventListener("pointercancel", onUp);
    }
    totalInput.addEventListener("change", () => {
      const asked = Number(totalInput.value);
      total = Number.isInteger(asked) ? Math.min(Math.max(asked, inList()), MOST) : inList();
      const results = render();
      say(totalNote.textContent.replace(/\.$/, ""), results);
    });
    reset.addEventListener("click", () => {
      cards = start.map((c) => Object.assign({}, c));
      total = startTotal;
      say(_("back to the start"), render());
    });

    root.replaceChildren(help, list, totalField, values, el("p", { class: "rm-actions" }, [reset]), status);
    root.classList.add("rm-ready");
    render();
  }

  function start() {
    document.querySelectorAll(".rm-playground").forEach((root, i) => {
      if (!root.id) root.id = `rm-playground-${i + 1}`;
      build(root);
    });
  }
  window.RankingPlayground = { startValues };
  if (typeof document === "undefined") return; // loaded outside a page (the tests): the computation only
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
