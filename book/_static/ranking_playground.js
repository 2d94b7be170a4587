/* ranking_playground.js: a ranked list of cards to play with.
 *
 * Enhances <div class="rm-playground" data-config='{"grades": [...], "k": 5, "graded": false}'>
 * (the {ranking-playground} directive of book/_ext/try_in_page.py). A click on a card
 * toggles 관련/무관 (or cycles the grades 0-3); the ▲/▼ buttons, the arrow keys on a
 * focused card, or dragging the handle move it. P@k, R@k, RR, AP@k and nDCG@k, and a bar
 * for each rank's share of nDCG@k, are computed with RankExplain (rankexplain.js, the
 * tested port of rankmetrics). Without scripts the page shows the list and its values.
 */
(function () {
  "use strict";
  const R = window.RankExplain;
  const METRICS = [
    ["precision", "P", "정밀도"],
    ["recall", "R", "재현율"],
    ["reciprocal_rank", "RR", "역순위"],
    ["average_precision", "AP", "평균 정밀도"],
    ["ndcg", "nDCG", ""],
  ];

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

    const help = el("p", {
      class: "rm-hint",
      id: `${root.id}-help`,
      text:
        (config.graded ? "카드를 누르면 등급이 0→1→2→3→0으로 바뀝니다. " : "카드를 누르면 관련과 무관이 바뀝니다. ") +
        "▲/▼ 버튼, 카드에서 ↑/↓ 키, 또는 ⠿ 손잡이를 끌어 순위를 옮깁니다. 점선 아래는 상위 k개 밖입니다.",
    });
    const list = el("ol", { class: "rm-cards", "aria-describedby": help.id });
    const values = el("ul", { class: "rm-values" });
    const status = el("p", { class: "rm-status", role: "status", "aria-live": "polite" });
    const reset = el("button", { type: "button", text: "처음 상태로" });

    function grades() {
      return cards.map((c) => c.grade);
    }
    function word(grade) {
      if (!config.graded) return grade > 0 ? "관련" : "무관";
      return grade > 0 ? `등급 ${grade}` : "무관 (0)";
    }

    function compute() {
      const out = {};
      for (const [metric] of METRICS) out[metric] = R.explain(metric, grades(), { int: String(k) }, {});
      return out;
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
          `${rank}위: 항목 ${card.name}, ${word(card.grade)}` +
          (inTop ? `, nDCG@${k}에 ${R.exactText(share)} 기여` : `, 상위 ${k}개 밖`);
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
            el("span", { text: `항목 ${card.name}` }),
            el("span", { class: "rm-grade", text: word(card.grade) }),
          ]
        );
        const bar = el("div", {
          class: "rm-bar",
          style: `width: ${(share * 100).toFixed(1)}%`,
          "aria-hidden": "true",
          title: `nDCG@${k} 기여 ${R.exactText(share)}`,
        });
        const handle = el("span", { class: "rm-handle", "aria-hidden": "true", text: "⠿" });
        const up = el("button", { type: "button", "aria-label": `항목 ${card.name}을 위로`, text: "▲" });
        const down = el("button", { type: "button", "aria-label": `항목 ${card.name}을 아래로`, text: "▼" });
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
        ...METRICS.map(([metric, symbol, name]) => {
          const e = results[metric];
          return el("li", { "data-metric": metric }, [
            el("span", { text: `${e.label}${name ? ` (${name})` : ""}` }),
            el("strong", { text: R.exactText(e.value) }),
          ]);
        })
      );
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
      say(`${i + 1}위 항목 ${cards[i].name}: ${word(cards[i].grade)}`, render({ kind: "card", at: i }));
    }
    function move(from, to, kind) {
      if (to < 0 || to >= cards.length || from === to) return;
      const [card] = cards.splice(from, 1);
      cards.splice(to, 0, card);
      say(`항목 ${card.name}을 ${to + 1}위로 옮겼습니다`, render({ kind, at: to }));
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
    reset.addEventListener("click", () => {
      cards = start.map((c) => Object.assign({}, c));
      say("처음 상태로 돌렸습니다", render());
    });

    root.replaceChildren(help, list, values, el("p", { class: "rm-actions" }, [reset]), status);
    root.classList.add("rm-ready");
    render();
  }

  function start() {
    document.querySelectorAll(".rm-playground").forEach((root, i) => {
      if (!root.id) root.id = `rm-playground-${i + 1}`;
      build(root);
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
