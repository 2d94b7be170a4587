/* rankexplain.js: the step tables of rankmetrics.explain, ported to the browser.
 *
 * A readable restatement of rankmetrics/teaching/explain (steps.py, dcg_steps.py,
 * hit_steps.py, ../hit_formulas.py) for one ranked list and the metrics the registry
 * marks page=True (nDCG, DCG, P, R, F1, HR, RR, MR and AP), plus the command line's
 * reading of typed input (rankmetrics/cli.py) with the same error messages, and the
 * marking rules of Worksheet.grade.
 *
 * Logic only: every word it shows is a message id of the package's catalogue, written
 * in a _() call as the Python writes it, and every fact about a metric (command, symbol,
 * cutoff rule, family) comes from the registry. Both arrive in rankexplain_data.js,
 * which the book build writes before this file loads (book/_ext/rankexplain_data.py:
 * window.RankExplainData = {messages: {id: text}, metrics: {name: {...}}}).
 *
 * The package stays the reference: tests/browser/test_rankexplain_port.py compares
 * this file with rankmetrics on many random inputs. Numbers follow the package:
 * exact values are floats (a DCG added rank by rank, as rankmetrics.metrics.dcg.dcg_sums
 * adds it), the hand calculation
 * uses Python's decimal rules (28 significant digits, half-even inside an
 * operation, half-up when a person rounds).
 *
 * Used by hand_checker.js, answer_box.js and ranking_playground.js through
 * window.RankExplain. No dependencies.
 */
(function (root) {
  "use strict";

  // ------------------------------------------------------------------ words and metrics, from the data file

  const DATA = root.RankExplainData || { language: "en", messages: {}, metrics: {} };
  /** A message id in the page's language (the id itself when the catalogue has no translation). */
  function _(id) {
    const text = DATA.messages[id];
    return text === undefined ? id : text;
  }
  /** Marks an id for the catalogue without translating it yet (a constant translated where shown). */
  function N_(id) {
    return id;
  }
  /**
   * text.format(**fields) as Python writes it: {name} is the field as text, {name!r} its repr
   * (a string quoted, a number as Python's float repr), {name:g} a number in Python's :g form;
   * {{ and }} are braces.
   */
  function format(text, fields) {
    return text.replace(/\{\{|\}\}|\{(\w+)(!r)?(:g)?\}/g, (whole, name, repr, g) => {
      if (whole === "{{") return "{";
      if (whole === "}}") return "}";
      if (!(name in fields)) throw new Error(`no field ${name} for ${text}`);
      const value = fields[name];
      if (repr) return typeof value === "string" ? pyStrRepr(value) : pyFloatRepr(value);
      if (g) return pyG(value);
      return String(value);
    });
  }

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

  // ------------------------------------------------------------------ the package's conventions

  /** The metrics this port computes: those rankmetrics.registry marks page=True, in registry order. */
  const METRICS = Object.fromEntries(Object.entries(DATA.metrics).filter(([, m]) => m.page));
  const GAINS = DATA.gains || ["linear", "exponential", "binary"];
  const GAIN_WORDS = {
    linear: N_("the grade itself (linear)"),
    exponential: N_("2^grade − 1 (exponential)"),
    binary: N_("1 if relevant (binary)"),
  };
  const NONE = N_("none");
  const RELEVANT_WORDS = N_("1 if relevant, else 0 (a grade > 0 is relevant)");
  const LEGEND = N_(
    "Cells hold the hand calculation (rounded); where the exact value reads differently, " +
      "it follows in parentheses."
  );
  const CARD_FIELDS = [
    ["gain", N_("gain")],
    ["discount", N_("discount")],
    ["ideal", N_("ideal ordering")],
    ["denominator", N_("denominator")],
    ["cutoff", N_("cutoff")],
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
    return k !== null ? `k = ${k}` : format(_("none (the whole list of {n})"), { n });
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
      fail(format(_("{name} must be a positive integer or None; got {k}{hint}"), { name, k: pyShow(pyItemRepr(k)), hint: "" }));
    if (BigInt(k.int) > 2n ** 63n - 1n)
      fail(
        format(_("{name} must be at most 2**63 - 1; got {k}{hint}"), {
          name,
          k: pyShow(k.int),
          hint: name === "k" ? _("; k=None keeps the whole list") : "",
        })
      );
    return Number(k.int);
  }
  function checkDecimals(value, name) {
    const fields = { name, MAX_DECIMALS: 15, value: pyShow(pyItemRepr(value)) };
    if (typeof value !== "object" || value.int === undefined || BigInt(value.int) < 0n)
      fail(format(_("{name} must be a whole number from 0 to {MAX_DECIMALS}; got {value}"), fields));
    if (BigInt(value.int) > 15n)
      fail(
        format(
          _(
            "{name} must be a whole number from 0 to {MAX_DECIMALS}; got {value} (a float carries " +
              "about 15 significant digits, so more places would only show noise)"
          ),
          fields
        )
      );
    return Number(value.int);
  }
  function checkGrades(values, name) {
    const shown = pyShow(listRepr(values));
    const numbers = values.map(numberOf);
    if (!numbers.every((v) => v >= 0) || !Number.isFinite(Math.max(...numbers))) {
      const bad = numbers.find((v) => !Number.isFinite(v));
      if (bad !== undefined)
        fail(format(_("{name} must be finite numbers; found {bad!r} in {original}"), { name, bad, original: shown }));
      const negative = numbers.find((v) => v < 0);
      fail(
        format(
          _(
            "{name} must not contain negative grades in the grades-in-order form; found {bad:g} " +
              "in {x}. (A negative grade such as TREC's -1, 'in the pool but unjudged', is accepted in the " +
              "ranking + relevant={{id: grade}} form: bpref skips such a document, infAP counts it as pooled " +
              "but unjudged, and the other measures count it as non-relevant.)"
          ),
          { name, bad: negative, x: shown }
        )
      );
    }
    return numbers;
  }
  function checkRanking(items) {
    const seen = new Map();
    items.forEach((item, i) => {
      if (seen.has(item))
        fail(
          format(
            _(
              "{name} contains the id {item} twice (ranks {first} and {position}); each item may " +
                "appear once"
            ),
            { name: "ranking", item: pyShow(pyStrRepr(item)), first: seen.get(item), position: i + 1 }
          )
        );
      seen.set(item, i + 1);
    });
  }
  /** relevant: {ids: [...], grades: Map id -> value, mapping: bool} as the command line reads it. */
  function checkRelevant(relevant) {
    const judged = new Map();
    for (const [item, value] of relevant.grades) {
      const number = numberOf(value);
      if (!Number.isFinite(number))
        fail(format(_("{where} must be finite; got {grade!r}"), { where: `relevant[${pyStrRepr(item)}]`, grade: number }));
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
          format(
            _(
              "{name} cannot be combined with relevant=...: with item ids the {name_2} comes from " +
                "every judged item in relevant; got {name}={value}"
            ),
            { name: "ideal", name_2: _("ideal ranking"), value: pyShow(listRepr(ideal)) }
          ) + _(" (ideal='listed' uses only the listed items)")
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
        _(
          "ideal='judged' needs the judgements: pass the item ids with relevant={id: grade}, or " +
            "the grades of every judged item as ideal=[...]; with grades alone only " +
            "ideal='listed' is possible"
        )
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
          format(
            _(
              "{name} must contain the grades of every judged item, including those in the ranking; " +
                "the ranking has grades {need} but {name} is {judged}"
            ),
            { name: "ideal", need: listRepr(need), judged: listRepr(judged) }
          )
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
            const where =
              row.rank !== undefined ? format(_("{column} at rank {rank}"), { column: col.header, rank: row.rank }) : col.header;
            return format(
              _(
                "first parting: [{table}] {cell} — by hand {hand}, exact {exact} " +
                  "(rounded to {places} decimals: {rounded})"
              ),
              {
                table: section.title,
                cell: where,
                hand: handText(hand, col.places),
                exact: exactText(exact),
                places: col.places,
                rounded: handText(exact, col.places),
              }
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
      let how = format(_("{places} decimals"), { places: decimals });
      if (discountDecimals !== null && discountDecimals !== undefined && discountDecimals !== decimals)
        how = format(_("{places} decimals, discount table {discount_places} decimals"), {
          places: decimals,
          discount_places: discountDecimals,
        });
      summary.push(
        format(
          _("by hand ({how}): {label} = {hand}  ·  exact: {exact} (rounded to {places} decimals: {rounded})"),
          {
            how,
            label,
            hand: handText(hand, decimals),
            exact: exactText(value),
            places: decimals,
            rounded: handText(value, decimals),
          }
        )
      );
      difference = firstDifference(sections);
      if (difference === null && decCmp(roundHalfUp(hand, decimals), roundHalfUp(value, decimals)) !== 0)
        difference = _("first parting: the last rounding — the rounding of every step added up");
      summary.push(
        difference ||
          format(_("the hand calculation equals the exact value (rounded to {places} decimals) at every step"), {
            places: decimals,
          })
      );
    }
    const card = _("rules") + " │ " + CARD_FIELDS.map(([key, word]) => `${_(word)}: ${conventions[key]}`).join(" │ ");
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
    e.title = format(_("{label} step table"), { label });
    e.legend = decimals === null || decimals === undefined ? null : _(LEGEND);
    return e;
  }

  // --- DCG and nDCG (dcg_steps.py)

  function overflow(gain) {
    fail(
      format(
        _(
          "{name}: the step table would hold numbers beyond the float range (about 1.8e308): {steps}. " +
            "The metric itself computes with scaled values; call it directly for the result."
        ),
        {
          name: "x",
          steps: format(_("a gain or running sum of gain ÷ discount under gain={gain}"), { gain: pyStrRepr(gain) }),
        }
      )
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
    const header = { linear: _("gain (=grade)"), exponential: _("gain 2^grade−1"), binary: _("gain (relevant=1)") }[gain];
    const cols = [column("rank", _("rank"))];
    if (hasItems) cols.push(column("item", _("item"), null, "left"));
    cols.push(
      column("grade", _("grade")),
      column("gain", header, decimals),
      column("discount", _("discount log2(rank+1)"), discountDecimals),
      column("term", _("gain÷discount"), decimals),
      column("running_sum", _("running sum"), decimals)
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
      const fractions = rows
        .map((r) => `${handText(r.gain_rounded, decimals)}/${handText(r.discount_rounded, discountDecimals)}`)
        .join(" + ");
      const first = format(_("by hand: {steps}"), { steps: `${name} = ${fractions}` });
      lines.push(
        first,
        `${" ".repeat(first.indexOf(" = ") - 1)} = ` +
          rows.map((r) => handText(r.term_rounded, decimals)).join(" + ") +
          ` = ${handText(hand, decimals)}`
      );
    }
    return lines;
  }

  /** The DCG of grades, each rank's gain ÷ discount added rank by rank (rankmetrics' dcg_sums). */
  function packageDcg(grades, gain) {
    let total = 0;
    for (let i = 0; i < grades.length; i++) total += gainOf(grades[i], gain) / discountOf(i + 1);
    return total;
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
        title: _("my ranking"),
        columns: dcgColumns(items !== null, gain, decimals, discountDecimals),
        rows: mine.rows,
        lines: dcgLines(dcgName, mine.rows, mine.total, mine.hand, decimals, discountDecimals),
      },
    ];
    const conventions = {
      gain: _(GAIN_WORDS[gain]),
      discount: _("log2(rank + 1)"),
      ideal: _(NONE),
      denominator: _("none (not normalised)"),
      cutoff: cutoffWords(k, n),
    };
    if (metric === "dcg") {
      const value = packageDcg(top, gain);
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
      title: _("ideal ordering"),
      columns: dcgColumns(items !== null, gain, decimals, discountDecimals),
      rows: best.rows,
      lines: dcgLines(idcgName, best.rows, best.total, best.hand, decimals, discountDecimals),
    });
    const label = `nDCG${suffix}`;
    // The metric's own value: both DCGs added rank by rank, as the package adds them.
    const sortedJudged = [...judged].sort((a, b) => b - a);
    const bestTop = k === null ? sortedJudged : sortedJudged.slice(0, Math.min(k, judged.length));
    const actual = packageDcg(top, gain);
    const bestDcg = packageDcg(bestTop, gain);
    const value = bestDcg > 0 ? actual / bestDcg : 0;
    const ratio = [
      best.total > 0
        ? `${label} = ${dcgName} ÷ ${idcgName} = ${exactText(mine.total)} ÷ ${exactText(best.total)} = ${exactText(value)}`
        : format(_("{label} = 0 (taken as 0 when {idcg} is 0)"), { label, idcg: idcgName }),
    ];
    let hand = null;
    if (decimals !== null) {
      if (decCmp(best.hand, dec(0n, 0)) > 0) {
        hand = roundHalfUp(decDiv(mine.hand, best.hand), decimals);
        const steps = `${label} = ${handText(mine.hand, decimals)} ÷ ${handText(best.hand, decimals)} = ${handText(hand, decimals)}`;
        ratio.push(format(_("by hand: {steps}"), { steps }));
      } else {
        hand = dec(0n, 0);
        ratio.push(format(_("by hand: {label} = 0 ({idcg} is 0)"), { label, idcg: idcgName }));
      }
    }
    sections.push({ title: _("ratio"), columns: [], rows: [], lines: ratio });
    if (source === "listed") conventions.ideal = _("the grades in the list (ideal='listed')");
    else if (kw.relevant) conventions.ideal = _("the grades of every judged item (relevant)");
    else if (source && typeof source !== "string") conventions.ideal = _("every grade given as ideal");
    else conventions.ideal = _("the grades in the list (no ideal given)");
    conventions.denominator = format(_("the DCG of the ideal ordering ({idcg})"), { idcg: idcgName });
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
    const atHits = METRICS[metric].precision_at_hits; // AP and MAP only (the catalogue's precision_at_hits)
    top.forEach((g, i) => {
      const hit = g > 0;
      if (hit) {
        count += 1;
        hitRanks.push(i + 1);
      }
      const row = { rank: i + 1 };
      if (items) row.item = items[i];
      Object.assign(row, { grade: g, hit, mark: hit ? "O" : "X", hits: count });
      if (atHits) {
        row.precision = hit ? count / (i + 1) : null;
        if (decimals !== null && hit)
          row.precision_rounded = decToFloat(roundHalfUp(decDiv(dec(count, 0), dec(i + 1, 0)), decimals));
      }
      rows.push(row);
    });
    const columns = [column("rank", _("rank"))];
    if (items) columns.push(column("item", _("item"), null, "left"));
    columns.push(
      column("grade", _("grade")),
      column("mark", _("relevant"), null, "left"),
      column("hits", _("hits so far"))
    );
    if (atHits) columns.push(column("precision", _("precision at a relevant rank"), decimals));
    const registered = METRICS[metric];
    const at = registered.cutoff === "required" ? `@${depth}` : k !== null ? `@${k}` : "";
    const h = {
      label: registered.symbol + at,
      at,
      found: count,
      depth,
      R: q.nRelevant,
      Rtext: exactText(q.nRelevant),
      hitRanks,
      rows,
      decimals,
      source: kw.relevant ? _("every judged relevant item (relevant)") : _("the relevant grades in the list"),
      lines: [],
      conventions: {
        gain: _(RELEVANT_WORDS),
        discount: _(NONE),
        ideal: _(NONE),
        denominator: "",
        cutoff: cutoffWords(k, n),
      },
      ratio: (numerator, denominator) =>
        denominator <= 0 ? dec(0n, 0) : roundHalfUp(decDiv(dec(numerator, 0), dec(denominator, 0)), decimals),
      handLine(hand) {
        if (hand !== null) this.lines.push(format(_("by hand: {label} = {value}"), { label: this.label, value: handText(hand, decimals) }));
      },
      allRelevant() {
        return format(_("all relevant R = {R}: {source}"), { R: this.Rtext, source: this.source });
      },
    };
    const [value, hand] = FORMULAS[metric](h);
    const sections = [{ title: _("relevant items by rank"), columns, rows, lines: h.lines }];
    return finish(metric, h.label, value, hand, rows, h.conventions, sections, decimals, null);
  }

  /**
   * The last step of each hit-based table (rankmetrics/teaching/hit_formulas.py), keyed by
   * metric: each reads the O/X table from h, writes its formula lines and card entries into
   * it, and returns [exact value, hand-rounded value or null].
   */
  const FORMULAS = {
    precision(h) {
      const value = h.found / h.depth;
      h.lines.push(
        format(_("{label} = hits ÷ k = {found} ÷ {depth} = {value}"), {
          label: h.label,
          found: h.found,
          depth: h.depth,
          value: exactText(value),
        })
      );
      h.conventions.denominator = format(_("k = {k} (k even when the list is shorter)"), { k: h.depth });
      const hand = h.decimals !== null ? h.ratio(h.found, h.depth) : null;
      h.handLine(hand);
      return [value, hand];
    },
    recall(h) {
      const value = h.R > 0 ? h.found / h.R : 0;
      h.lines.push(
        format(_("{label} = hits ÷ all relevant = {found} ÷ {R} = {value}"), {
          label: h.label,
          found: h.found,
          R: h.Rtext,
          value: exactText(value),
        })
      );
      h.conventions.denominator = h.allRelevant();
      const hand = h.decimals !== null ? h.ratio(h.found, h.R) : null;
      h.handLine(hand);
      return [value, hand];
    },
    f1(h) {
      const p = h.found / h.depth;
      const r = h.R > 0 ? h.found / h.R : 0;
      const value = p + r > 0 ? (2 * p * r) / (p + r) : 0;
      const P = exactText(p);
      const Rc = exactText(r);
      h.lines.push(
        `P${h.at} = ${h.found} ÷ ${h.depth} = ${P},  R${h.at} = ${h.found} ÷ ${h.Rtext} = ${Rc}`,
        `${h.label} = 2 × P × R ÷ (P + R) = 2 × ${P} × ${Rc} ÷ (${P} + ${Rc}) = ${exactText(value)}`
      );
      h.conventions.denominator = format(_("P: k = {k}; R: all relevant R = {R}: {source}"), {
        k: h.depth,
        R: h.Rtext,
        source: h.source,
      });
      if (h.decimals === null) return [value, null];
      const d = h.decimals;
      const hp = h.ratio(h.found, h.depth);
      const hr = h.ratio(h.found, h.R);
      const sum = decAdd(hp, hr);
      const hand =
        decCmp(sum, dec(0n, 0)) > 0 ? roundHalfUp(decDiv(decMul(decMul(dec(2n, 0), hp), hr), sum), d) : dec(0n, 0);
      h.lines.push(
        format(_("by hand: P = {P}, R = {R}, {label} = 2 × {P} × {R} ÷ ({P} + {R}) = {value}"), {
          P: handText(hp, d),
          R: handText(hr, d),
          label: h.label,
          value: handText(hand, d),
        })
      );
      return [value, hand];
    },
    hit_rate(h) {
      const value = h.found > 0 ? 1 : 0;
      const said = h.found
        ? format(_("1 ({found} relevant in the top k)"), { found: h.found })
        : _("0 (none relevant in the top k)");
      h.lines.push(`${h.label} = ${said}`);
      h.conventions.denominator = _("none (0 or 1)");
      return [value, h.decimals !== null ? dec(value, 0) : null];
    },
    reciprocal_rank(h) {
      const first = h.hitRanks.length ? h.hitRanks[0] : null;
      const value = first ? 1 / first : 0;
      h.lines.push(
        first
          ? `${h.label} = 1 ÷ ${first} = ${exactText(value)}`
          : format(_("{label} = 0 (nothing relevant)"), { label: h.label })
      );
      h.conventions.denominator = _("the rank of the first relevant item");
      const hand = h.decimals !== null ? h.ratio(1, first || 0) : null;
      h.handLine(hand);
      return [value, hand];
    },
    mean_rank(h) {
      let value;
      let hand = null;
      if (h.hitRanks.length) {
        const total = h.hitRanks.reduce((a, b) => a + b, 0);
        value = total / h.hitRanks.length;
        h.lines.push(`${h.label} = (${h.hitRanks.join(" + ")}) ÷ ${h.hitRanks.length} = ${exactText(value)}`);
        if (h.decimals !== null) hand = roundHalfUp(decDiv(dec(total, 0), dec(h.hitRanks.length, 0)), h.decimals);
      } else {
        value = NaN;
        h.lines.push(format(_("{label} = nan (without a relevant item there is no mean rank)"), { label: h.label }));
      }
      h.conventions.denominator = _(
        "relevant items in the list (relevant items outside it have no rank and are left out)"
      );
      h.handLine(hand);
      return [value, hand];
    },
    average_precision(h) {
      const d = h.decimals;
      const precisions = h.rows.filter((r) => r.hit).map((r) => r.precision);
      const stepTotal = precisions.reduce((a, b) => a + b, 0);
      const divisor = h.R;
      // The metric's own value: every rank's precision (0 where no hit), added rank by rank
      // (trec_eval's order, as the package's average_precision sums).
      const total = h.rows.reduce((sum, r) => sum + (r.hit ? r.hits / r.rank : 0), 0);
      const value = divisor > 0 ? total / divisor : 0;
      const D = exactText(divisor);
      const terms = precisions.map(exactText).join(" + ") || "0";
      const stepValue = divisor > 0 ? stepTotal / divisor : 0;
      h.lines.push(`${h.label} = (${terms}) ÷ ${D} = ${exactText(stepTotal)} ÷ ${D} = ${exactText(stepValue)}`);
      h.conventions.denominator = h.allRelevant();
      if (d === null) return [value, null];
      const handTerms = h.rows.filter((r) => r.hit).map((r) => decFromFloat(r.precision_rounded));
      const handTotal = handTerms.reduce(decAdd, dec(0n, 0));
      const hand = divisor > 0 ? roundHalfUp(decDiv(handTotal, dec(divisor, 0)), d) : dec(0n, 0);
      const joined = handTerms.map((t) => handText(t, d)).join(" + ") || "0";
      const steps = `${h.label} = (${joined}) ÷ ${D} = ${handText(handTotal, d)} ÷ ${D} = ${handText(hand, d)}`;
      h.lines.push(format(_("by hand: {steps}"), { steps }));
      return [value, hand];
    },
  };

  /** The metrics this file can compute: the DCG family's two and every formula above. */
  function implemented() {
    return ["ndcg", "dcg", ...Object.keys(FORMULAS)];
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
    if (!METRICS[metric])
      fail(
        format(_("{name} must be one of {choices}; got {value}"), {
          name: "metric",
          choices: Object.keys(METRICS).map(pyStrRepr).join(", "),
          value: pyShow(pyStrRepr(String(metric))),
        })
      );
    k = checkK(k === undefined ? null : k);
    const decimals = o.decimals === undefined || o.decimals === null ? null : checkDecimals(o.decimals, "decimals");
    let discountDecimals =
      o.discountDecimals === undefined || o.discountDecimals === null
        ? null
        : checkDecimals(o.discountDecimals, "discount_decimals");
    if (discountDecimals !== null && decimals === null)
      fail(
        format(
          _(
            "discount_decimals only applies with decimals (student rounding); got " +
              "discount_decimals={discount_decimals} and decimals=None"
          ),
          { discount_decimals: discountDecimals }
        )
      );
    if (decimals !== null && discountDecimals === null) discountDecimals = decimals;
    const q = prepare(x, o.relevant || null, o.ideal);
    const items = o.relevant ? x.slice() : null;
    const kw = { relevant: o.relevant ? Object.assign({ judgedGrades: q.judged }, o.relevant) : null, ideal: o.ideal };
    if (METRICS[metric].family === "dcg") {
      const gain = o.gain === undefined ? "linear" : o.gain;
      if (!GAINS.includes(gain))
        fail(
          format(_("{name} must be one of {choices}; got {value}"), {
            name: "gain",
            choices: GAINS.map(pyStrRepr).join(", "),
            value: pyShow(pyStrRepr(String(gain))),
          })
        );
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
        fail(
          format(_("{name} must contain only numbers (or O/X); found {token!r} in {tokens!r}"), {
            name,
            token: word,
            tokens: words.join(" "),
          })
        );
      out.push(value);
    }
    const marks = words.filter((w) => ["O", "X"].includes(w.toUpperCase())).length;
    if (marks > 0 && marks < words.length)
      fail(
        format(
          _(
            "{option}: O/X and numbers cannot be mixed: {tokens!r} " +
              "(write all numbers, as in 3 0 2, or all O/X, as in O X O)"
          ),
          { option: option || _("grade"), tokens: words.join(" ") }
        )
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
            format(
              _(
                "{option} {token!r}: --ranking has an item of that name, so it is unclear whether " +
                  "to read it as name:grade; write the grade too (e.g. {token}:1)"
              ),
              { option: "--relevant", token: word }
            )
          );
        key = word.slice(0, at);
        value = cliNumber(word.slice(at + 1));
        if (!key || typeof value === "string")
          fail(
            format(
              _(
                "in {option}'s name:grade the grade must be a number: {token!r} " +
                  "(e.g. B:3; without a grade, 1; a name with ':' takes its grade too, as in doc:7:1)"
              ),
              { option: "--relevant", token: word }
            )
          );
        anyGrade = true;
      } else {
        key = word;
        value = 1;
      }
      if (grades.has(key))
        fail(
          format(_("{option} has the same item twice: {key!r} ({tokens!r})"), {
            option: "--relevant",
            key,
            tokens: words.join(" "),
          })
        );
      grades.set(key, numberOf(value));
    }
    return { grades, mapping: anyGrade };
  }

  function cliScalar(text, option) {
    const t = String(text === undefined || text === null ? "" : text).trim();
    if (t === "") return null;
    const value = cliNumber(t);
    if (typeof value === "string") fail(format(_("{option} takes a number: {text!r}"), { option, text: t }));
    return value;
  }

  /**
   * fromForm(form): read the checker's fields as `rankmetrics <command> ... --explain` reads its
   * arguments, in the same order, and explain. form = {metric, list, relevant, k, gain,
   * ideal ("judged" | "listed"), idealGrades, decimals, discountDecimals} (all text).
   * Returns {explanation} or {error} (the message the command line prints after "error: ").
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
          fail(_("--relevant goes with --ranking (item names); in the grades form the grades say what is relevant"));
        x = listWords;
        options.relevant = cliJudgements(relevantWords, x);
        if (metric === "ndcg" && form.ideal === "listed") options.ideal = "listed";
      } else {
        if (!listWords.length)
          fail(
            format(_("give the grades in ranked order (e.g. {example}) or --ranking and --relevant"), {
              example: `rankmetrics ${command} 3 0 3 2 0`,
            })
          );
        x = cliGrades(listWords, "x", null);
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
   * verdict: the word for "blank", "right", "rounding slip" or "wrong" in the page's language
   * (key: that English message id), by Worksheet.grade's rules: right when the
   * answer, rounded half up to `decimals`, equals the hand-rounded key or the exact value so
   * rounded; a rounding slip when it is the exact value rounded to fewer decimals, or lies
   * within three units of the last decimal (not when decimals is 0); otherwise wrong.
   * An answer farther than 1 from the exact value is wrong at once. `rounding` is the exact
   * value rounded to `decimals`, as text (what would have been right). Text that is not a
   * number gives verdict null.
   */
  const VERDICTS = { blank: N_("blank"), right: N_("right"), slip: N_("rounding slip"), wrong: N_("wrong") };
  function grade(answerText, exact, hand, decimals) {
    const result = gradeKey(answerText, exact, hand, decimals);
    return result.key === null
      ? { verdict: null, key: null, rounding: result.rounding }
      : { verdict: _(VERDICTS[result.key]), key: result.key, rounding: result.rounding };
  }
  function gradeKey(answerText, exact, hand, decimals) {
    const text = String(answerText === undefined || answerText === null ? "" : answerText)
      .trim()
      .replace(/^\+/, "");
    const rounding = handText(exact, decimals);
    if (text === "") return { key: "blank", rounding };
    let number = decParse(text);
    if (number === null) {
      if (/^[+-]?(inf|infinity)$/i.test(text)) return { key: "wrong", rounding };
      if (/^nan$/i.test(text)) return { key: "blank", rounding };
      return { key: null, rounding };
    }
    const exactDec = decFromFloat(exact);
    const distance = decAdd(number, dec(-exactDec.c, exactDec.e));
    const far = decCmp(distance.c < 0n ? dec(-distance.c, distance.e) : distance, dec(1n, 0)) > 0;
    if (far) return { key: "wrong", rounding };
    const mine = roundHalfUp(number, decimals);
    const keys = [roundHalfUp(exact, decimals)];
    if (hand !== null && hand !== undefined) keys.push(roundHalfUp(typeof hand === "string" ? decParse(hand) : hand, decimals));
    if (keys.some((key) => decCmp(mine, key) === 0)) return { key: "right", rounding };
    for (let places = 0; places < decimals; places++)
      if (decCmp(number, roundHalfUp(exact, places)) === 0) return { key: "slip", rounding };
    if (decimals > 0) {
      const size = distance.c < 0n ? dec(-distance.c, distance.e) : distance;
      if (decCmp(size, dec(3n, -decimals)) <= 0) return { key: "slip", rounding };
    }
    return { key: "wrong", rounding };
  }

  root.RankExplain = {
    METRICS,
    GAINS,
    DATA,
    _,
    N_,
    format,
    implemented,
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
    exp2,
    roundHalfUp: (value, places) => decToString(roundHalfUp(value, places)),
    decimal: { parse: decParse, add: decAdd, mul: decMul, div: decDiv, toString: decToString, fromFloat: decFromFloat },
  };
})(typeof window !== "undefined" ? window : globalThis);
