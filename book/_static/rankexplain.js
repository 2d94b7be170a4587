/* rankexplain.js: the step tables of rankmetrics.explain, ported to the browser.
 *
 * A readable restatement of rankmetrics/teaching/explain (steps.py, dcg_steps.py,
 * hit_steps.py) for one ranked list and the metrics nDCG, DCG, P, R, F1, HR, RR, MR
 * and AP, plus the command line's reading of typed input (rankmetrics/cli.py) with
 * the same error messages, and the marking rules of Worksheet.grade.
 *
 * The package stays the reference: tests/browser/test_rankexplain_port.py compares
 * this file with rankmetrics on many random inputs. Numbers follow the package:
 * exact values are floats (sums in numpy's pairwise order), the hand calculation
 * uses Python's decimal rules (28 significant digits, half-even inside an
 * operation, half-up when a person rounds).
 *
 * Used by hand_checker.js, answer_box.js and ranking_playground.js through
 * window.RankExplain. No dependencies.
 */
(function (root) {
  "use strict";

  // ------------------------------------------------------------------ decimals
  // A decimal number c × 10^e with a BigInt coefficient, as Python's Decimal.
  const PREC = 28n; // Python's default context
  const TEN = 10n;

  function dec(c, e) {
    return { c: BigInt(c), e: e };
  }
  function pow10(n) {
    return TEN ** BigInt(n);
  }
  function digits(c) {
    return (c < 0n ? -c : c).toString().length;
  }

  /** A decimal from text such as "0.25", "-1e-7", "3". Returns null when it is not a number. */
  function decParse(text) {
    const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
    if (!m || (m[2] === "" && (m[3] === undefined || m[3] === ""))) return null;
    const frac = m[3] || "";
    let c = BigInt((m[2] || "0") + frac);
    if (m[1] === "-") c = -c;
    return dec(c, (m[4] ? parseInt(m[4], 10) : 0) - frac.length);
  }

  /** Decimal(repr(x)): the shortest decimal that reads back as the float x. */
  function decFromFloat(x) {
    return decParse(x.toExponential());
  }

  /** The float's exact binary value as a decimal (for formatting as Python's f"{x:.4f}"). */
  function decExact(x) {
    const view = new DataView(new ArrayBuffer(8));
    view.setFloat64(0, x);
    const hi = view.getUint32(0);
    const lo = view.getUint32(4);
    const sign = hi >>> 31 ? -1n : 1n;
    const biased = (hi >>> 20) & 0x7ff;
    let mantissa = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
    let exponent;
    if (biased === 0) exponent = -1074;
    else {
      mantissa |= 1n << 52n;
      exponent = biased - 1075;
    }
    if (exponent >= 0) return dec(sign * (mantissa << BigInt(exponent)), 0);
    return dec(sign * mantissa * 5n ** BigInt(-exponent), exponent);
  }

  function align(a, b) {
    const e = Math.min(a.e, b.e);
    return [a.c * pow10(a.e - e), b.c * pow10(b.e - e), e];
  }
  function decCmp(a, b) {
    const [x, y] = align(a, b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  function decIsZero(a) {
    return a.c === 0n;
  }

  /** Divide c by 10^drop, rounding; `sticky` says whether anything nonzero lay beyond c's digits. */
  function shiftRound(c, drop, mode, sticky) {
    if (drop <= 0) return c * pow10(-drop);
    const unit = pow10(drop);
    const negative = c < 0n;
    const a = negative ? -c : c;
    let q = a / unit;
    const twice = 2n * (a % unit);
    let up = false;
    if (twice > unit) up = true;
    else if (twice === unit) up = sticky || mode === "half_up" || q % 2n === 1n; // a tie
    if (up) q += 1n;
    return negative ? -q : q;
  }

  /** Round to the context's 28 significant digits, half-even (Python's default context). */
  function context(a, sticky) {
    const n = digits(a.c);
    if (n <= Number(PREC)) return a;
    const drop = n - Number(PREC);
    return dec(shiftRound(a.c, drop, "half_even", sticky || false), a.e + drop);
  }
  function decAdd(a, b) {
    const [x, y, e] = align(a, b);
    return context(dec(x + y, e));
  }
  function decMul(a, b) {
    return context(dec(a.c * b.c, a.e + b.e));
  }
  /** a ÷ b correctly rounded to 28 significant digits, as Python's Decimal division. */
  function decDiv(a, b) {
    if (a.c === 0n) return dec(0n, 0);
    const negative = a.c < 0n !== b.c < 0n;
    const A = a.c < 0n ? -a.c : a.c;
    const B = b.c < 0n ? -b.c : b.c;
    // Scale so the integer quotient has at least PREC + 1 digits.
    const shift = Number(PREC) + 2 + digits(B) - digits(A);
    const num = shift >= 0 ? A * pow10(shift) : A;
    const den = shift >= 0 ? B : B * pow10(-shift);
    const q = num / den;
    const r = num % den;
    let out = context(dec(q, a.e - b.e - shift), r !== 0n);
    // A quotient that was exact keeps its value; one that was not gets the sticky rounding above.
    if (negative) out = dec(-out.c, out.e);
    return out;
  }

  /** round_half_up(value, places): round half up at `places` decimals (a number or a decimal). */
  function roundHalfUp(value, places) {
    const d = typeof value === "number" ? decFromFloat(value) : value;
    if (d.e >= -places) return dec(d.c * pow10(d.e + places), -places);
    return dec(shiftRound(d.c, -places - d.e, "half_up", false), -places);
  }

  /** A decimal at exponent -places written with exactly `places` decimals. */
  function fixed(d, places) {
    let c = d.c * pow10(d.e + places); // d.e >= -places here
    const negative = c < 0n;
    if (negative) c = -c;
    let s = c.toString();
    if (places > 0) {
      s = s.padStart(places + 1, "0");
      s = s.slice(0, s.length - places) + "." + s.slice(s.length - places);
    }
    return (negative ? "-" : "") + s;
  }
  function decToString(d) {
    // Plain notation, for equality checks and short messages.
    return d.e >= 0 ? (d.c * pow10(d.e)).toString() : fixed(d, -d.e);
  }
  function decToFloat(d) {
    return Number(decToString(d));
  }
  function decIsIntegral(d) {
    return d.e >= 0 || d.c % pow10(-d.e) === 0n;
  }

  // ------------------------------------------------------------------ numbers as Python writes them

  /** f"{x:.{places}f}" for a float: the exact binary value rounded half-even. */
  function pyFixed(x, places) {
    const d = decExact(x);
    if (d.e >= -places) return fixed(d, places);
    return fixed(dec(shiftRound(d.c, -places - d.e, "half_even", false), -places), places);
  }

  /** repr(float) */
  function pyFloatRepr(x) {
    if (Number.isNaN(x)) return "nan";
    if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
    if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
    const [mant, exp] = x.toExponential().split("e");
    const sign = mant.startsWith("-") ? "-" : "";
    const ds = mant.replace("-", "").replace(".", "");
    const decpt = parseInt(exp, 10) + 1;
    if (decpt <= -4 || decpt > 16) {
      const e = decpt - 1;
      const m = ds.length > 1 ? ds[0] + "." + ds.slice(1) : ds;
      return sign + m + "e" + (e < 0 ? "-" : "+") + String(Math.abs(e)).padStart(2, "0");
    }
    if (decpt <= 0) return sign + "0." + "0".repeat(-decpt) + ds;
    if (decpt >= ds.length) return sign + ds + "0".repeat(decpt - ds.length) + ".0";
    return sign + ds.slice(0, decpt) + "." + ds.slice(decpt);
  }

  /** f"{x:g}" (6 significant digits) */
  function pyG(x) {
    if (Number.isNaN(x)) return "nan";
    if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
    if (x === 0) return Object.is(x, -0) ? "-0" : "0";
    const d = decExact(x);
    const n = digits(d.c);
    const rounded = n > 6 ? dec(shiftRound(d.c, n - 6, "half_even", false), d.e + n - 6) : d;
    let c = rounded.c < 0n ? -rounded.c : rounded.c;
    let e = rounded.e;
    while (c % TEN === 0n && c !== 0n) {
      c /= TEN;
      e += 1;
    }
    const s = c.toString();
    const exp10 = s.length - 1 + e; // position of the first digit
    const sign = rounded.c < 0n ? "-" : "";
    if (exp10 < -4 || exp10 >= 6) {
      const m = s.length > 1 ? s[0] + "." + s.slice(1) : s;
      return sign + m + "e" + (exp10 < 0 ? "-" : "+") + String(Math.abs(exp10)).padStart(2, "0");
    }
    return sign + decToString(dec(c, e));
  }

  /** repr(str) */
  function pyStrRepr(s) {
    const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
    let out = "";
    for (const ch of s) {
      const code = ch.codePointAt(0);
      if (ch === "\\") out += "\\\\";
      else if (ch === quote) out += "\\" + quote;
      else if (ch === "\n") out += "\\n";
      else if (ch === "\r") out += "\\r";
      else if (ch === "\t") out += "\\t";
      else if (code < 0x20 || code === 0x7f) out += "\\x" + code.toString(16).padStart(2, "0");
      else out += ch;
    }
    return quote + out + quote;
  }

  /** A parsed token as Python shows it inside a list: ints bare, floats as repr. */
  function pyItemRepr(v) {
    if (typeof v === "string") return pyStrRepr(v);
    if (v && v.int !== undefined) return v.int;
    return pyFloatRepr(v);
  }
  function numberOf(v) {
    return v && v.int !== undefined ? Number(v.int) : v;
  }
  /** _show(value): repr cut to 60 characters. */
  function pyShow(text) {
    return text.length <= 60 ? text : text.slice(0, 57) + "...";
  }
  function listRepr(values) {
    return "[" + values.map(pyItemRepr).join(", ") + "]";
  }

  /** exact_text: whole numbers bare, otherwise 4 decimals without trailing zeros. */
  function exactText(value) {
    if (value === null || value === undefined) return "";
    if (Number.isNaN(value)) return "nan";
    if (Number.isInteger(value)) return BigInt(value).toString();
    let text = pyFixed(value, 4);
    if (text.includes(".")) text = text.replace(/0+$/, "").replace(/\.$/, "");
    return text;
  }

  /** hand_text: a hand-rounded value, whole numbers bare, otherwise exactly `places` decimals. */
  function handText(value, places) {
    const d = roundHalfUp(value, places);
    if (decIsIntegral(d)) return decToString(roundHalfUp(d, 0)).replace(/^-0$/, "0");
    return fixed(d, places);
  }

  // ------------------------------------------------------------------ floats as numpy sums them

  /** numpy's pairwise summation of a float row (np.sum along a contiguous axis). */
  function pairwiseSum(a, start, n) {
    if (start === undefined) {
      start = 0;
      n = a.length;
    }
    if (n < 8) {
      let res = 0;
      for (let i = 0; i < n; i++) res += a[start + i];
      return res;
    }
    if (n <= 128) {
      const r = a.slice(start, start + 8);
      let i = 8;
      for (; i < n - (n % 8); i += 8) for (let j = 0; j < 8; j++) r[j] += a[start + i + j];
      let res = r[0] + r[1] + (r[2] + r[3]) + (r[4] + r[5] + (r[6] + r[7]));
      for (; i < n; i++) res += a[start + i];
      return res;
    }
    let n2 = Math.floor(n / 2);
    n2 -= n2 % 8;
    return pairwiseSum(a, start, n2) + pairwiseSum(a, start + n2, n - n2);
  }

  // ------------------------------------------------------------------ the package's conventions

  /** The metrics this port covers, as rankmetrics.registry declares them. */
  const METRICS = {
    ndcg: { command: "ndcg", symbol: "nDCG", cutoff: "optional", family: "dcg" },
    dcg: { command: "dcg", symbol: "DCG", cutoff: "optional", family: "dcg" },
    precision: { command: "precision", symbol: "P", cutoff: "required", family: "hits" },
    recall: { command: "recall", symbol: "R", cutoff: "required", family: "hits" },
    f1: { command: "f1", symbol: "F1", cutoff: "required", family: "hits" },
    hit_rate: { command: "hit-rate", symbol: "HR", cutoff: "required", family: "hits" },
    reciprocal_rank: { command: "rr", symbol: "RR", cutoff: "optional", family: "hits" },
    mean_rank: { command: "mr", symbol: "MR", cutoff: "optional", family: "hits" },
    average_precision: { command: "ap", symbol: "AP", cutoff: "optional", family: "hits" },
  };
  const GAINS = ["linear", "exponential", "binary"];
  const GAIN_WORDS = {
    linear: "등급 그대로 (linear)",
    exponential: "2^등급 − 1 (exponential)",
    binary: "관련이면 1 (binary)",
  };
  const NONE = "없음";
  const RELEVANT_WORDS = "관련이면 1, 아니면 0 (등급 > 0 이 관련)";
  const LEGEND =
    "칸의 값은 손 계산(반올림)이고, 정확한 값이 다르게 읽히는 칸만 괄호 안에 정확한 값을 적었습니다.";
  const CARD_FIELDS = [
    ["gain", "이득"],
    ["discount", "할인"],
    ["ideal", "이상적 순서"],
    ["denominator", "분모"],
    ["cutoff", "컷오프"],
  ];

  // 2^x correctly rounded, as numpy's exp2 (glibc) gives it; Math.pow(2, 1.5) may be one bit off,
  // which shows in a step table rounded to 15 decimals. Fixed point with BITS bits after the point.
  const BITS = 160n;
  const ONE = 1n << BITS;
  const LN2 = (() => {
    // ln 2 = 2 atanh(1/3) = 2 Σ 1 / ((2j + 1) 3^(2j+1))
    let sum = 0n;
    let power = ONE / 3n;
    for (let j = 0n; power > 0n; j++) {
      sum += power / (2n * j + 1n);
      power /= 9n;
    }
    return 2n * sum;
  })();

  function exp2(x) {
    if (Number.isInteger(x) || !Number.isFinite(x)) return Math.pow(2, x);
    const n = Math.floor(x);
    if (n >= 1024) return Infinity;
    const exact = decExact(x - n); // 0 <= f < 1, exact: subtracting the whole part loses nothing
    // f as a fixed-point number (its binary digits all fit in BITS bits)
    const f = (exact.c * ONE) / pow10(-exact.e);
    const t = (f * LN2) >> BITS; // f ln 2 < 0.7
    let term = ONE;
    let y = ONE;
    for (let j = 1n; term > 0n; j++) {
      term = (term * t) >> BITS;
      term /= j;
      y += term;
    }
    // y = 2^f in [1, 2): keep 53 bits, rounding to nearest (even on a tie)
    const drop = BITS - 52n;
    let mantissa = y >> drop;
    const rest = y - (mantissa << drop);
    const half = 1n << (drop - 1n);
    if (rest > half || (rest === half && (mantissa & 1n) === 1n)) mantissa += 1n;
    return Number(mantissa) * Math.pow(2, n - 52);
  }

  function gainOf(grade, gain) {
    const g = Math.max(grade, 0); // a negative judgement earns nothing
    if (gain === "binary") return g > 0 ? 1 : 0;
    if (gain === "linear") return g;
    return exp2(g) - 1;
  }
  function discountOf(rank) {
    return Math.log2(rank + 1);
  }
  function cutoffWords(k, n) {
    return k !== null ? `k = ${k}` : `${NONE} (목록 전체 ${n}개)`;
  }

  class InputError extends Error {}
  function fail(message) {
    throw new InputError(message);
  }

  // ------------------------------------------------------------------ input checks (rankmetrics._validation)

  function checkK(k, name) {
    name = name || "k";
    if (k === null || k === undefined) return null;
    if (typeof k !== "object" || k.int === undefined || BigInt(k.int) < 1n)
      fail(`${name} must be a positive integer or None; got ${pyShow(pyItemRepr(k))}`);
    if (BigInt(k.int) > 2n ** 63n - 1n)
      fail(`${name} must be at most 2**63 - 1; got ${pyShow(k.int)}${name === "k" ? "; k=None keeps the whole list" : ""}`);
    return Number(k.int);
  }
  function checkDecimals(value, name) {
    const range = `${name} must be a whole number from 0 to 15; got ${pyShow(pyItemRepr(value))}`;
    if (typeof value !== "object" || value.int === undefined || BigInt(value.int) < 0n) fail(range);
    if (BigInt(value.int) > 15n)
      fail(range + " (a float carries about 15 significant digits, so more places would only show noise)");
    return Number(value.int);
  }
  function checkGrades(values, name) {
    const shown = pyShow(listRepr(values));
    const numbers = values.map(numberOf);
    if (!numbers.every((v) => v >= 0) || !Number.isFinite(Math.max(...numbers))) {
      const bad = numbers.find((v) => !Number.isFinite(v));
      if (bad !== undefined) fail(`${name} must be finite numbers; found ${pyFloatRepr(bad)} in ${shown}`);
      const negative = numbers.find((v) => v < 0);
      fail(
        `${name} must not contain negative grades in the grades-in-order form; found ${pyG(negative)} ` +
          `in ${shown}. (A negative grade such as TREC's -1, 'in the pool but unjudged', is accepted in the ` +
          "ranking + relevant={id: grade} form, where it counts as non-relevant.)"
      );
    }
    return numbers;
  }
  function checkRanking(items) {
    const seen = new Map();
    items.forEach((item, i) => {
      if (seen.has(item))
        fail(
          `ranking contains the id ${pyShow(pyStrRepr(item))} twice (ranks ${seen.get(item)} and ${i + 1}); ` +
            "each item may appear once"
        );
      seen.set(item, i + 1);
    });
  }
  /** relevant: {ids: [...], grades: Map id -> value, mapping: bool} as the command line reads it. */
  function checkRelevant(relevant) {
    const judged = new Map();
    for (const [item, value] of relevant.grades) {
      const number = numberOf(value);
      if (!Number.isFinite(number)) fail(`relevant[${pyStrRepr(item)}] must be finite; got ${pyFloatRepr(number)}`);
      judged.set(item, number);
    }
    return judged;
  }

  /** prepare(): grades in ranked order, every judged grade (the ideal), R. */
  function prepare(x, relevant, ideal) {
    const source = typeof ideal === "string" ? ideal : null;
    if (relevant) {
      if (ideal && typeof ideal !== "string")
        fail(
          "ideal cannot be combined with relevant=...: with item ids the ideal ranking comes from every " +
            `judged item in relevant; got ideal=${pyShow(listRepr(ideal))} (ideal='listed' uses only the listed items)`
        );
      checkRanking(x);
      const judged = checkRelevant(relevant);
      const grades = x.map((item) => Math.max(judged.has(item) ? judged.get(item) : 0, 0));
      const all = [...judged.values()].map((g) => Math.max(g, 0));
      return {
        grades,
        ideal: source === "listed" ? grades : all,
        nRelevant: all.filter((g) => g > 0).length,
        judged,
      };
    }
    if (source === "judged")
      fail(
        "ideal='judged' needs the judgements: pass the item ids with relevant={id: grade}, or the grades of " +
          "every judged item as ideal=[...]; with grades alone only ideal='listed' is possible"
      );
    const grades = checkGrades(x, "x");
    let best = grades;
    if (ideal && typeof ideal !== "string") {
      const judged = checkGrades(ideal, "ideal");
      const top = [...judged].sort((a, b) => b - a);
      const need = grades.filter((g) => g > 0).sort((a, b) => b - a);
      const padded = top.concat(new Array(Math.max(0, need.length - top.length)).fill(0));
      if (need.some((g, i) => g > padded[i]))
        fail(
          "ideal must contain the grades of every judged item, including those in the ranking; the ranking " +
            `has grades ${listRepr(need)} but ideal is ${listRepr(judged)}`
        );
      best = judged;
    }
    return { grades, ideal: best, nRelevant: grades.filter((g) => g > 0).length, judged: null };
  }

  // ------------------------------------------------------------------ the explanation

  function column(key, header, places, alignment) {
    return { key, header, places: places === undefined ? null : places, align: alignment || "right" };
  }

  function cell(row, col) {
    const value = row[col.key];
    if (value === null || value === undefined) return "";
    if (typeof value === "string" || col.key === "item") return String(value);
    if (typeof value === "boolean") return value ? "O" : "X";
    const rounded = row[col.key + "_rounded"];
    if (rounded === null || rounded === undefined || col.places === null) return exactText(value);
    let text = handText(rounded, col.places);
    const exact = exactText(value);
    if (decCmp(decParse(text), decParse(exact)) !== 0) text += ` (${exact})`;
    return text;
  }

  function firstDifference(sections) {
    for (const section of sections)
      for (const row of section.rows)
        for (const col of section.columns) {
          const hand = row[col.key + "_rounded"];
          const exact = row[col.key];
          if (hand === undefined || hand === null || col.places === null || exact === undefined || exact === null)
            continue;
          if (decCmp(roundHalfUp(hand, col.places), roundHalfUp(exact, col.places)) !== 0) {
            const where = row.rank !== undefined ? `${row.rank}위의 ` : "";
            return (
              `처음 갈라지는 곳: [${section.title}] ${where}${col.header} — 손 계산 ` +
              `${handText(hand, col.places)}, 정확한 값 ${exactText(exact)} ` +
              `(소수 ${col.places}자리로 반올림하면 ${handText(exact, col.places)})`
            );
          }
        }
    return null;
  }

  function finish(metric, label, value, hand, rows, conventions, sections, decimals, discountDecimals, extra) {
    let summary = [];
    let rounded = null;
    let difference = null;
    if (hand !== null && hand !== undefined) {
      rounded = decToFloat(roundHalfUp(hand, decimals));
      let how = `소수 ${decimals}자리`;
      if (discountDecimals !== null && discountDecimals !== undefined && discountDecimals !== decimals)
        how += `, 할인표 소수 ${discountDecimals}자리`;
      summary.push(
        `손 계산 (${how}): ${label} = ${handText(hand, decimals)}  ·  정확한 값: ${exactText(value)} ` +
          `(소수 ${decimals}자리로 반올림하면 ${handText(value, decimals)})`
      );
      difference = firstDifference(sections);
      if (difference === null && decCmp(roundHalfUp(hand, decimals), roundHalfUp(value, decimals)) !== 0)
        difference = "처음 갈라지는 곳: 마지막 반올림 — 단계마다 반올림한 오차가 쌓였습니다";
      summary.push(difference || `손 계산이 모든 단계에서 정확한 값(소수 ${decimals}자리 반올림)과 같습니다`);
    }
    const card = "규칙 │ " + CARD_FIELDS.map(([key, word]) => `${word}: ${conventions[key]}`).join(" │ ");
    const e = Object.assign(
      {
        metric,
        label,
        value,
        rounded,
        hand, // the unrounded hand result as a decimal (or null)
        rows,
        card,
        conventions,
        sections,
        summary,
        decimals: decimals === undefined ? null : decimals,
        discountDecimals: discountDecimals === undefined ? null : discountDecimals,
        difference,
        idealRows: null,
      },
      extra || {}
    );
    e.tables = () =>
      sections.map((s) => ({
        title: s.title,
        headers: s.columns.map((c) => c.header),
        aligns: s.columns.map((c) => c.align),
        cells: s.rows.map((row) => s.columns.map((c) => cell(row, c))),
        lines: s.lines,
      }));
    e.legend = decimals === null || decimals === undefined ? null : LEGEND;
    return e;
  }

  // --- DCG and nDCG (dcg_steps.py)

  function overflow(gain) {
    fail(
      "x: the step table would hold numbers beyond the float range (about 1.8e308): a gain or running sum " +
        `of gain ÷ discount under gain=${pyStrRepr(gain)}. The metric itself computes with scaled values; ` +
        "call it directly for the result."
    );
  }

  function dcgTable(grades, items, gain, decimals, discountDecimals) {
    const rows = [];
    let running = 0;
    let handSum = dec(0n, 0);
    for (let i = 0; i < grades.length; i++) {
      const g = gainOf(grades[i], gain);
      const d = discountOf(i + 1);
      const term = g / d;
      running += term;
      if (!Number.isFinite(running)) overflow(gain); // the sums only grow: nothing later is finite
      const row = { rank: i + 1 };
      if (items) row.item = i < items.length && items[i] !== null ? items[i] : "—";
      Object.assign(row, { grade: grades[i], gain: g, discount: d, term, running_sum: running });
      if (decimals !== null) {
        const handGain = roundHalfUp(g, decimals);
        const handDiscount = roundHalfUp(d, discountDecimals);
        const handTerm = roundHalfUp(decDiv(handGain, handDiscount), decimals);
        handSum = decAdd(handSum, handTerm);
        Object.assign(row, {
          gain_rounded: decToFloat(handGain),
          discount_rounded: decToFloat(handDiscount),
          term_rounded: decToFloat(handTerm),
          running_sum_rounded: decToFloat(handSum),
        });
      }
      rows.push(row);
    }
    const total = rows.length ? running : 0;
    return { rows, total, hand: decimals !== null ? handSum : null };
  }

  function dcgColumns(hasItems, gain, decimals, discountDecimals) {
    const header = { linear: "이득(=등급)", exponential: "이득 2^등급−1", binary: "이득(관련=1)" }[gain];
    const cols = [column("rank", "순위")];
    if (hasItems) cols.push(column("item", "항목", null, "left"));
    cols.push(
      column("grade", "등급"),
      column("gain", header, decimals),
      column("discount", "할인 log2(순위+1)", discountDecimals),
      column("term", "이득÷할인", decimals),
      column("running_sum", "누적 합", decimals)
    );
    return cols;
  }

  function dcgLines(name, rows, total, hand, decimals, discountDecimals) {
    if (!rows.length) return [`${name} = 0`];
    const pad = " ".repeat(name.length);
    const lines = [
      `${name} = ` + rows.map((r) => `${exactText(r.gain)}/${exactText(r.discount)}`).join(" + "),
      `${pad} = ` + rows.map((r) => exactText(r.term)).join(" + ") + ` = ${exactText(total)}`,
    ];
    if (hand !== null) {
      lines.push(
        `손 계산: ${name} = ` +
          rows
            .map((r) => `${handText(r.gain_rounded, decimals)}/${handText(r.discount_rounded, discountDecimals)}`)
            .join(" + "),
        `${" ".repeat(name.length + 5)} = ` +
          rows.map((r) => handText(r.term_rounded, decimals)).join(" + ") +
          ` = ${handText(hand, decimals)}`
      );
    }
    return lines;
  }

  /** The DCG of grades summed as numpy sums them, over `width` columns (zeros beyond the list). */
  function numpyDcg(grades, gain, width) {
    const terms = [];
    for (let i = 0; i < width; i++) terms.push(i < grades.length ? gainOf(grades[i], gain) / discountOf(i + 1) : 0);
    return pairwiseSum(terms);
  }

  function byGradeDescending(values, gradeOf) {
    // A stable sort, best grade first, as Python's sorted(key=-grade).
    return values
      .map((v, i) => [v, i])
      .sort((a, b) => gradeOf(b[0]) - gradeOf(a[0]) || a[1] - b[1])
      .map((p) => p[0]);
  }

  function compareCodePoints(a, b) {
    const x = Array.from(a, (ch) => ch.codePointAt(0));
    const y = Array.from(b, (ch) => ch.codePointAt(0));
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
    return x.length - y.length;
  }

  function idealItems(items, relevant) {
    const judged = relevant.judgedGrades;
    const listed = new Set(items);
    const unlisted = [...judged.keys()].filter((item) => !listed.has(item));
    if (!relevant.mapping) unlisted.sort((a, b) => compareCodePoints(pyStrRepr(a), pyStrRepr(b)));
    const order = items.filter((item) => judged.has(item)).concat(unlisted);
    return byGradeDescending(order, (item) => Math.max(judged.get(item), 0));
  }

  function explainDcg(metric, x, q, items, k, gain, decimals, discountDecimals, kw) {
    const n = q.grades.length;
    let depth = k === null ? n : k;
    const top = q.grades.slice(0, depth);
    const suffix = k !== null ? `@${k}` : "";
    const mine = dcgTable(top, items, gain, decimals, discountDecimals);
    const dcgName = `DCG${suffix}`;
    const sections = [
      {
        title: "내 순위",
        columns: dcgColumns(items !== null, gain, decimals, discountDecimals),
        rows: mine.rows,
        lines: dcgLines(dcgName, mine.rows, mine.total, mine.hand, decimals, discountDecimals),
      },
    ];
    const conventions = {
      gain: GAIN_WORDS[gain],
      discount: "log2(순위 + 1)",
      ideal: NONE,
      denominator: `${NONE} (정규화하지 않음)`,
      cutoff: cutoffWords(k, n),
    };
    if (metric === "dcg") {
      const value = numpyDcg(top, gain, top.length);
      return finish(metric, dcgName, value, mine.hand, mine.rows, conventions, sections, decimals, discountDecimals);
    }
    // The ideal ordering: every judged grade, best first, cut at the same k (uncut without k).
    const judged = q.ideal;
    if (k === null) depth = Math.max(depth, judged.length);
    const ideal = judged
      .concat(new Array(Math.max(0, depth - judged.length)).fill(0))
      .sort((a, b) => b - a)
      .slice(0, depth);
    const shown = Math.min(depth, Math.max(top.length, judged.length));
    let idealNames = null;
    const source = kw.ideal;
    if (items !== null) {
      if (source === "listed") {
        const ranked = byGradeDescending(
          items.map((_, i) => i),
          (i) => q.grades[i]
        );
        idealNames = ranked.map((i) => items[i]).slice(0, shown);
      } else idealNames = idealItems(items, kw.relevant).slice(0, shown);
      while (idealNames.length < shown) idealNames.push(null);
    }
    const best = dcgTable(ideal.slice(0, shown), idealNames, gain, decimals, discountDecimals);
    const idcgName = `IDCG${suffix}`;
    sections.push({
      title: "이상적 순서",
      columns: dcgColumns(items !== null, gain, decimals, discountDecimals),
      rows: best.rows,
      lines: dcgLines(idcgName, best.rows, best.total, best.hand, decimals, discountDecimals),
    });
    const label = `nDCG${suffix}`;
    // The metric's own value: both DCGs over the same width, summed as numpy does.
    const sortedJudged = [...judged].sort((a, b) => b - a);
    const bestTop = k === null ? sortedJudged : sortedJudged.slice(0, Math.min(k, judged.length));
    const width = Math.max(top.length, bestTop.length);
    const actual = numpyDcg(top, gain, width);
    const bestDcg = numpyDcg(bestTop, gain, width);
    const value = bestDcg > 0 ? actual / bestDcg : 0;
    const ratio = [
      best.total > 0
        ? `${label} = ${dcgName} ÷ ${idcgName} = ${exactText(mine.total)} ÷ ${exactText(best.total)} = ${exactText(value)}`
        : `${label} = 0 (${idcgName}가 0이면 0으로 둡니다)`,
    ];
    let hand = null;
    if (decimals !== null) {
      if (decCmp(best.hand, dec(0n, 0)) > 0) {
        hand = roundHalfUp(decDiv(mine.hand, best.hand), decimals);
        ratio.push(
          `손 계산: ${label} = ${handText(mine.hand, decimals)} ÷ ${handText(best.hand, decimals)}` +
            ` = ${handText(hand, decimals)}`
        );
      } else {
        hand = dec(0n, 0);
        ratio.push(`손 계산: ${label} = 0 (${idcgName}가 0)`);
      }
    }
    sections.push({ title: "비율", columns: [], rows: [], lines: ratio });
    if (source === "listed") conventions.ideal = "목록 안의 등급 (ideal='listed')";
    else if (kw.relevant) conventions.ideal = "판정된 모든 항목의 등급 (relevant)";
    else if (source && typeof source !== "string") conventions.ideal = "ideal로 준 등급 전체";
    else conventions.ideal = "목록 안의 등급 (ideal 미지정)";
    conventions.denominator = `이상적 순서의 DCG (${idcgName})`;
    return finish(metric, label, value, hand, mine.rows, conventions, sections, decimals, discountDecimals, {
      idealRows: best.rows,
    });
  }

  // --- the hit-based metrics (hit_steps.py)

  function explainHits(metric, q, items, k, decimals, kw) {
    const grades = q.grades;
    const n = grades.length;
    const depth = k === null ? n : k;
    const top = grades.slice(0, depth);
    const rows = [];
    let count = 0;
    const hitRanks = [];
    top.forEach((g, i) => {
      const hit = g > 0;
      if (hit) {
        count += 1;
        hitRanks.push(i + 1);
      }
      const row = { rank: i + 1 };
      if (items) row.item = items[i];
      Object.assign(row, { grade: g, hit, mark: hit ? "O" : "X", hits: count });
      row.precision = hit ? count / (i + 1) : null;
      if (decimals !== null && hit)
        row.precision_rounded = decToFloat(roundHalfUp(decDiv(dec(count, 0), dec(i + 1, 0)), decimals));
      rows.push(row);
    });
    const columns = [column("rank", "순위")];
    if (items) columns.push(column("item", "항목", null, "left"));
    columns.push(
      column("grade", "등급"),
      column("mark", "정답", null, "left"),
      column("hits", "누적 정답 수"),
      column("precision", "정답 위치의 정밀도", decimals)
    );
    const registered = METRICS[metric];
    const at = registered.cutoff === "required" ? `@${depth}` : k !== null ? `@${k}` : "";
    const label = registered.symbol + at;
    const found = count;
    const R = q.nRelevant;
    const Rtext = exactText(R);
    const source = kw.relevant ? "판정된 모든 관련 항목 (relevant)" : "목록 안의 관련 등급 수";
    const lines = [];
    const conventions = {
      gain: RELEVANT_WORDS,
      discount: NONE,
      ideal: NONE,
      denominator: "",
      cutoff: cutoffWords(k, n),
    };
    const ratio = (numerator, denominator) =>
      denominator <= 0 ? dec(0n, 0) : roundHalfUp(decDiv(dec(numerator, 0), dec(denominator, 0)), decimals);
    const d = decimals;
    let value;
    let hand = null;
    let handLine = true;
    if (metric === "precision") {
      value = found / depth;
      lines.push(`${label} = 정답 수 ÷ k = ${found} ÷ ${depth} = ${exactText(value)}`);
      conventions.denominator = `k = ${depth} (목록이 k보다 짧아도 k)`;
      if (d !== null) hand = ratio(found, depth);
    } else if (metric === "recall") {
      value = R > 0 ? found / R : 0;
      lines.push(`${label} = 정답 수 ÷ 전체 관련 수 = ${found} ÷ ${Rtext} = ${exactText(value)}`);
      conventions.denominator = `전체 관련 수 R = ${Rtext}: ${source}`;
      if (d !== null) hand = ratio(found, R);
    } else if (metric === "f1") {
      handLine = false;
      const p = found / depth;
      const r = R > 0 ? found / R : 0;
      value = p + r > 0 ? (2 * p * r) / (p + r) : 0;
      const P = exactText(p);
      const Rc = exactText(r);
      lines.push(
        `P${at} = ${found} ÷ ${depth} = ${P},  R${at} = ${found} ÷ ${Rtext} = ${Rc}`,
        `${label} = 2 × P × R ÷ (P + R) = 2 × ${P} × ${Rc} ÷ (${P} + ${Rc}) = ${exactText(value)}`
      );
      conventions.denominator = `P는 k = ${depth}, R은 전체 관련 수 R = ${Rtext}: ${source}`;
      if (d !== null) {
        const hp = ratio(found, depth);
        const hr = ratio(found, R);
        const sum = decAdd(hp, hr);
        hand = decCmp(sum, dec(0n, 0)) > 0 ? roundHalfUp(decDiv(decMul(decMul(dec(2n, 0), hp), hr), sum), d) : dec(0n, 0);
        lines.push(
          `손 계산: P = ${handText(hp, d)}, R = ${handText(hr, d)}, ${label} = 2 × ${handText(hp, d)} × ` +
            `${handText(hr, d)} ÷ (${handText(hp, d)} + ${handText(hr, d)}) = ${handText(hand, d)}`
        );
      }
    } else if (metric === "hit_rate") {
      handLine = false;
      value = found > 0 ? 1 : 0;
      const said = found ? `1 (상위 k 안에 정답 ${found}개)` : "0 (상위 k 안에 정답 없음)";
      lines.push(`${label} = ${said}`);
      conventions.denominator = `${NONE} (0 또는 1)`;
      if (d !== null) hand = dec(value, 0);
    } else if (metric === "reciprocal_rank") {
      const first = hitRanks.length ? hitRanks[0] : null;
      value = first ? 1 / first : 0;
      lines.push(first ? `${label} = 1 ÷ ${first} = ${exactText(value)}` : `${label} = 0 (정답이 없음)`);
      conventions.denominator = "첫 정답의 순위";
      if (d !== null) hand = ratio(1, first || 0);
    } else if (metric === "mean_rank") {
      if (hitRanks.length) {
        const total = hitRanks.reduce((a, b) => a + b, 0);
        value = total / hitRanks.length;
        lines.push(`${label} = (${hitRanks.join(" + ")}) ÷ ${hitRanks.length} = ${exactText(value)}`);
        if (d !== null) hand = roundHalfUp(decDiv(dec(total, 0), dec(hitRanks.length, 0)), d);
      } else {
        value = NaN;
        lines.push(`${label} = nan (정답이 없으면 평균 순위를 정할 수 없음)`);
      }
      conventions.denominator = "목록에 든 정답 수 (목록 밖 정답은 순위가 없어 빠짐)";
    } else if (metric === "average_precision") {
      handLine = false;
      const precisions = rows.filter((r) => r.hit).map((r) => r.precision);
      const stepTotal = precisions.reduce((a, b) => a + b, 0);
      const divisor = R;
      // The metric's own value: every rank's precision (0 where no hit), added rank by rank
      // (trec_eval's order, as the package's average_precision sums).
      const total = rows.reduce((sum, r) => sum + (r.hit ? r.hits / r.rank : 0), 0);
      value = divisor > 0 ? total / divisor : 0;
      const D = exactText(divisor);
      const terms = precisions.map(exactText).join(" + ") || "0";
      const stepValue = divisor > 0 ? stepTotal / divisor : 0;
      lines.push(`${label} = (${terms}) ÷ ${D} = ${exactText(stepTotal)} ÷ ${D} = ${exactText(stepValue)}`);
      conventions.denominator = `전체 관련 수 R = ${Rtext}: ${source}`;
      if (d !== null) {
        const handTerms = rows.filter((r) => r.hit).map((r) => decFromFloat(r.precision_rounded));
        const handTotal = handTerms.reduce(decAdd, dec(0n, 0));
        hand = divisor > 0 ? roundHalfUp(decDiv(handTotal, dec(divisor, 0)), d) : dec(0n, 0);
        const joined = handTerms.map((t) => handText(t, d)).join(" + ") || "0";
        lines.push(
          `손 계산: ${label} = (${joined}) ÷ ${D} = ${handText(handTotal, d)} ÷ ${D} = ${handText(hand, d)}`
        );
      }
    }
    if (hand !== null && handLine) lines.push(`손 계산: ${label} = ${handText(hand, d)}`);
    const sections = [{ title: "순위별 정답", columns, rows, lines }];
    return finish(metric, label, value, hand, rows, conventions, sections, decimals, null);
  }

  /**
   * explain(metric, x, k, options): the step table of one ranked list.
   *
   * x: grades (numbers, or {int: "3"} as the command line parses them) or item ids;
   * options: {relevant: {grades: Map, mapping: bool}, ideal: "listed" | "judged" | [grades],
   * gain, decimals, discountDecimals} where k, decimals and discountDecimals are parsed
   * tokens ({int: "5"} or a float). Throws InputError with the package's message.
   */
  function explain(metric, x, k, options) {
    const o = options || {};
    if (!METRICS[metric]) fail(`metric must be one of ${Object.keys(METRICS).map(pyStrRepr).join(", ")}; got ${pyShow(pyStrRepr(String(metric)))}`);
    k = checkK(k === undefined ? null : k);
    const decimals = o.decimals === undefined || o.decimals === null ? null : checkDecimals(o.decimals, "decimals");
    let discountDecimals =
      o.discountDecimals === undefined || o.discountDecimals === null
        ? null
        : checkDecimals(o.discountDecimals, "discount_decimals");
    if (discountDecimals !== null && decimals === null)
      fail(
        "discount_decimals only applies with decimals (student rounding); got " +
          `discount_decimals=${discountDecimals} and decimals=None`
      );
    if (decimals !== null && discountDecimals === null) discountDecimals = decimals;
    const q = prepare(x, o.relevant || null, o.ideal);
    const items = o.relevant ? x.slice() : null;
    const kw = { relevant: o.relevant ? Object.assign({ judgedGrades: q.judged }, o.relevant) : null, ideal: o.ideal };
    if (METRICS[metric].family === "dcg") {
      const gain = o.gain === undefined ? "linear" : o.gain;
      if (!GAINS.includes(gain))
        fail(`gain must be one of ${GAINS.map(pyStrRepr).join(", ")}; got ${pyShow(pyStrRepr(String(gain)))}`);
      return explainDcg(metric, x, q, items, k, gain, decimals, discountDecimals, kw);
    }
    return explainHits(metric, q, items, k, decimals, kw);
  }

  // ------------------------------------------------------------------ typed input, as the command line reads it

  const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

  /** _number: ints stay ints ({int: "3"}), other numbers become floats, anything else stays text. */
  function cliNumber(token) {
    if (/^[+-]?\d+$/.test(token)) return { int: BigInt(token).toString() };
    if (NUMBER.test(token) || ["nan", "inf", "infinity"].includes(token.toLowerCase().replace(/^[+-]/, "")))
      return Number(token.toLowerCase().replace("infinity", "inf").replace("inf", "Infinity"));
    return token;
  }
  function tokens(text) {
    return String(text || "")
      .trim()
      .split(/\s+/)
      .filter((t) => t.length);
  }

  /** _grades: numbers, or O/X marks read as 1 and 0, never a mix. */
  function cliGrades(words, name, option) {
    const out = [];
    for (const word of words) {
      const upper = word.toUpperCase();
      if (upper === "O" || upper === "X") {
        out.push({ int: upper === "O" ? "1" : "0" });
        continue;
      }
      const value = cliNumber(word);
      if (typeof value === "string")
        fail(`${name} must contain only numbers (or O/X); found ${pyStrRepr(word)} in ${pyStrRepr(words.join(" "))}`);
      out.push(value);
    }
    const marks = words.filter((w) => ["O", "X"].includes(w.toUpperCase())).length;
    if (marks > 0 && marks < words.length)
      fail(
        `${option}: O/X와 숫자를 섞어 쓸 수 없습니다: ${pyStrRepr(words.join(" "))} ` +
          "(모두 숫자로 3 0 2, 또는 모두 O/X로 O X O처럼 적으세요)"
      );
    return out;
  }

  /** _judgements: "B D" -> a set; "B:3 D" -> a mapping {B: 3, D: 1}. */
  function cliJudgements(words, ranking) {
    const grades = new Map();
    let anyGrade = false;
    for (const word of words) {
      const at = word.lastIndexOf(":");
      let key;
      let value;
      if (at >= 0) {
        if (ranking.includes(word))
          fail(
            `--relevant ${pyStrRepr(word)}: --ranking에 같은 이름의 항목이 있어 이름:등급으로 읽을지 ` +
              `알 수 없습니다; 등급까지 적으세요 (예: ${word}:1)`
          );
        key = word.slice(0, at);
        value = cliNumber(word.slice(at + 1));
        if (!key || typeof value === "string")
          fail(
            `--relevant의 이름:등급에서 등급은 수여야 합니다: ${pyStrRepr(word)} ` +
              "(예: B:3; 등급을 빼면 1, 이름에 ':'가 있으면 doc:7:1처럼 등급까지)"
          );
        anyGrade = true;
      } else {
        key = word;
        value = 1;
      }
      if (grades.has(key))
        fail(`--relevant에 같은 항목이 두 번 있습니다: ${pyStrRepr(key)} (${pyStrRepr(words.join(" "))})`);
      grades.set(key, numberOf(value));
    }
    return { grades, mapping: anyGrade };
  }

  function cliScalar(text, option) {
    const t = String(text === undefined || text === null ? "" : text).trim();
    if (t === "") return null;
    const value = cliNumber(t);
    if (typeof value === "string") fail(`${option}에는 수를 주세요: ${pyStrRepr(t)}`);
    return value;
  }

  /**
   * fromForm(form): read the checker's fields as `rankmetrics <command> ... --explain` reads its
   * arguments, in the same order, and explain. form = {metric, list, relevant, k, gain,
   * ideal ("judged" | "listed"), idealGrades, decimals, discountDecimals} (all text).
   * Returns {explanation} or {error} (the message the command line prints after "오류: ").
   */
  function fromForm(form) {
    try {
      const metric = form.metric;
      const command = METRICS[metric].command;
      const k = cliScalar(form.k, "--k");
      const listWords = tokens(form.list);
      const relevantWords = tokens(form.relevant);
      const options = {};
      let x;
      if (relevantWords.length) {
        if (!listWords.length)
          fail("--relevant는 --ranking(항목 이름)과 함께 씁니다; 등급 형태에서는 등급이 정답을 말합니다");
        x = listWords;
        options.relevant = cliJudgements(relevantWords, x);
        if (metric === "ndcg" && form.ideal === "listed") options.ideal = "listed";
      } else {
        if (!listWords.length)
          fail(
            `등급을 순위 순서대로 주세요 (예: rankmetrics ${command} 3 0 3 2 0) 또는 --ranking과 --relevant를 주세요`
          );
        x = cliGrades(listWords, "x", "등급");
        if (metric === "ndcg" && form.ideal === "judged") {
          const idealWords = tokens(form.idealGrades);
          options.ideal = idealWords.length ? cliGrades(idealWords, "ideal", "--ideal") : "judged";
        }
      }
      if (METRICS[metric].family === "dcg") options.gain = form.gain || "linear";
      options.decimals = cliScalar(form.decimals, "--decimals");
      options.discountDecimals =
        METRICS[metric].family === "dcg" ? cliScalar(form.discountDecimals, "--discount-decimals") : null;
      return { explanation: explain(metric, x, k, options) };
    } catch (error) {
      if (error instanceof InputError) return { error: error.message };
      throw error;
    }
  }

  /** The command line that computes the same thing (shown under the checker). */
  function commandLine(form) {
    const metric = METRICS[form.metric];
    const parts = ["rankmetrics", metric.command];
    const relevantWords = tokens(form.relevant);
    if (relevantWords.length) parts.push("--ranking", ...tokens(form.list), "--relevant", ...relevantWords);
    else parts.push(...tokens(form.list));
    if (String(form.k || "").trim()) parts.push("--k", String(form.k).trim());
    if (metric.family === "dcg" && form.gain && form.gain !== "linear") parts.push("--gain", form.gain);
    if (form.metric === "ndcg" && !relevantWords.length && form.ideal === "judged" && tokens(form.idealGrades).length)
      parts.push("--ideal", ...tokens(form.idealGrades));
    parts.push("--explain");
    if (String(form.decimals || "").trim()) parts.push("--decimals", String(form.decimals).trim());
    if (metric.family === "dcg" && String(form.discountDecimals || "").trim())
      parts.push("--discount-decimals", String(form.discountDecimals).trim());
    return parts.join(" ");
  }

  // ------------------------------------------------------------------ marking an answer (Worksheet.grade)

  /**
   * grade(answerText, exact, hand, decimals) -> {verdict, rounding}
   *
   * verdict: "빈칸", "정답", "반올림 차이" or "오답", by Worksheet.grade's rules: right when the
   * answer, rounded half up to `decimals`, equals the hand-rounded key or the exact value so
   * rounded; a rounding slip when it is the exact value rounded to fewer decimals, or lies
   * within three units of the last decimal (not when decimals is 0); otherwise wrong.
   * An answer farther than 1 from the exact value is wrong at once. `rounding` is the exact
   * value rounded to `decimals`, as text (what would have been right). Text that is not a
   * number gives verdict null.
   */
  function grade(answerText, exact, hand, decimals) {
    const text = String(answerText === undefined || answerText === null ? "" : answerText)
      .trim()
      .replace(/^\+/, "");
    const rounding = handText(exact, decimals);
    if (text === "") return { verdict: "빈칸", rounding };
    let number = decParse(text);
    if (number === null) {
      if (/^[+-]?(inf|infinity)$/i.test(text)) return { verdict: "오답", rounding };
      if (/^nan$/i.test(text)) return { verdict: "빈칸", rounding };
      return { verdict: null, rounding };
    }
    const exactDec = decFromFloat(exact);
    const distance = decAdd(number, dec(-exactDec.c, exactDec.e));
    const far = decCmp(distance.c < 0n ? dec(-distance.c, distance.e) : distance, dec(1n, 0)) > 0;
    if (far) return { verdict: "오답", rounding };
    const mine = roundHalfUp(number, decimals);
    const keys = [roundHalfUp(exact, decimals)];
    if (hand !== null && hand !== undefined) keys.push(roundHalfUp(typeof hand === "string" ? decParse(hand) : hand, decimals));
    if (keys.some((key) => decCmp(mine, key) === 0)) return { verdict: "정답", rounding };
    for (let places = 0; places < decimals; places++)
      if (decCmp(number, roundHalfUp(exact, places)) === 0) return { verdict: "반올림 차이", rounding };
    if (decimals > 0) {
      const size = distance.c < 0n ? dec(-distance.c, distance.e) : distance;
      if (decCmp(size, dec(3n, -decimals)) <= 0) return { verdict: "반올림 차이", rounding };
    }
    return { verdict: "오답", rounding };
  }

  root.RankExplain = {
    METRICS,
    GAINS,
    InputError,
    explain,
    fromForm,
    commandLine,
    grade,
    exactText,
    handText,
    pyFixed,
    pyFloatRepr,
    pyG,
    pairwiseSum,
    exp2,
    roundHalfUp: (value, places) => decToString(roundHalfUp(value, places)),
    decimal: { parse: decParse, add: decAdd, mul: decMul, div: decDiv, toString: decToString, fromFloat: decFromFloat },
  };
})(typeof window !== "undefined" ? window : globalThis);
