"""Reference outputs of NIST trec_eval 10.0, recorded for the package's tests.

Runs a trec_eval binary that you name on committed inputs and writes what it
printed into tests/data/trec_eval_10/: for each case its command line, standard
output, standard error and exit code (outputs/<case>.stdout and .stderr, indexed
by index.json, which also keeps the text of the binary's ``-v`` and the date).
The tests (tests/package/test_trec_eval_10.py, tests/package/test_dropin.py)
read only these files, so they run without trec_eval.

It needs NIST trec_eval 10.0 (https://github.com/usnistgov/trec_eval, the
commit "Updating CHANGELOG for version 10.0"; that release's ``-v`` says
``trec_eval version 10.0-rc3``). Which binary produced the files is recorded,
not checked: the script refuses nothing but a path that is not executable.

The inputs are

* NIST's test files in book/data/trec_eval (read where they are, not copied);
* three adversarial judgement/run pairs, generated here from fixed seeds and
  written beside the outputs (adv1..adv3): tied scores, scores that only a
  double tells apart (0.123456789 and 0.123456788), grades -1..3, docnos shared
  by several queries and non-ASCII docnos, the queries of a run interleaved,
  '#' comment lines where trec_eval 10.0 skips them, run queries without
  judgements, and in adv3 judged queries the run does not contain; and four
  more pairs from the same generator (sum1..sum3, rbp: one query each, or a
  whole pair), found by comparing rankmetrics with trec_eval on many seeds, where
  the order of summation or trec_eval's rbp changes a printed value;
* small files for how trec_eval 10.0 reads files and flags (EDGES below);
* the tiny files of tests/data/trec_eval_10/VERSION_DIFFERENCES.md, one
  difference between trec_eval 9.x and 10.0 each (written from DIFFERENCES
  below). That Markdown file is written too, with the outputs pasted in.

``--trec-eval-9 PATH`` optionally names a trec_eval 9.x binary as well: its
outputs for the difference cases are then recorded beside 10.0's
(outputs9/), so that both columns of VERSION_DIFFERENCES.md are observed.

Usage (from the repository's root):

    python benchmarks/trec_eval_reference.py --trec-eval /path/to/trec_eval
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import random
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "trec_eval_10"
NIST = "book/data/trec_eval"  # paths are written relative to ROOT: messages name them so
HERE = "tests/data/trec_eval_10"

# ---------------------------------------------------------------- adversarial inputs

UNICODE = ["문서", "dokumént", "документ", "文書", "ドキュメント", "ü"]


def adversarial(seed: int, *, missing: bool) -> tuple[str, str]:
    """One random judgement file and run, as text, from a fixed seed.

    trec_eval 10.0 skips a line that starts with '#' in a run, but in a qrels
    file only one such line in a row and never as the last line (see
    VERSION_DIFFERENCES.md), so comments go only there.
    """
    rng = random.Random(seed)
    n_queries = rng.randint(9, 12)
    qids = [str(rng.randint(1, 999)) for _ in range(n_queries)]
    qids = list(dict.fromkeys(qids)) + ["q" + str(seed), "Q-" + str(seed)]
    # Docnos come from one pool, so that the same docno is judged for several queries.
    pool = [f"d{i:03d}" for i in range(40)] + [f"{u}{i}" for u in UNICODE for i in range(3)]
    pool += ["D001", "d1", "d10", "d01", "d_1", "d-1", "d.1"]  # orders that strcmp decides
    qrels_lines: list[str] = ["# adversarial judgements, seed " + str(seed)]
    run_lines: list[str] = []
    judged = []
    for qid in qids:
        docs = rng.sample(pool, rng.randint(4, 30))
        grades = {d: rng.choice([-1, 0, 0, 0, 1, 1, 2, 3]) for d in docs}
        if rng.random() < 0.85:
            grades[docs[0]] = rng.randint(1, 3)  # most queries have a relevant document
        judged.append(qid)
        lines = [f"{qid} 0 {d} {g}" for d, g in grades.items()]
        if rng.random() < 0.3:
            lines.insert(rng.randrange(1, len(lines)), f"# comment inside query {qid}: 1 2 3")
        qrels_lines.extend(lines)
    absent = set(rng.sample(judged, 2)) if missing else set()
    run_only = [f"u{seed}{i}" for i in range(2)]  # run queries without judgements
    for qid in [q for q in qids if q not in absent] + run_only:
        shown = rng.sample(pool, rng.choice([1, 3, 8, 15, 40, len(pool)]))
        base = rng.choice([0.123456789, 1.0, 1e-30, 1e30, -5.5, 1234567.0])
        scores: list[str] = []
        for i, _ in enumerate(shown):
            kind = rng.random()
            if kind < 0.25 and scores:
                scores.append(rng.choice(scores))  # an exact tie with an earlier document
            elif kind < 0.45:
                # Equal as 32-bit floats, different as doubles.
                scores.append(repr(base + rng.choice([0, 1, 2, 3]) * abs(base) * 1e-9))
            elif kind < 0.55:
                scores.append(rng.choice(["0.123456789", "0.123456788", "0.1234567", "1e-300", "3e38"]))
            else:
                scores.append(f"{rng.uniform(-3, 3) * (abs(base) or 1):.6g}")
        for rank, (doc, score) in enumerate(zip(shown, scores), 1):
            run_lines.append(f"{qid}\tQ0\t{doc}\t{rank}\t{score}\tadv{seed}")
    rng.shuffle(run_lines)  # queries interleaved: trec_eval sorts by query, then by score
    for _ in range(3):
        run_lines.insert(rng.randrange(len(run_lines)), rng.choice(["# run comment", "#", "   # indented"]))
    run_lines.insert(0, "# adversarial run, seed " + str(seed))
    qrels_lines.append(f"{qids[0]} 0 zzz-last-judged 0")  # a comment may not be the last line
    return "\n".join(qrels_lines) + "\n", "\n".join(run_lines) + "\n# last line is a comment"


ADVERSARIAL = {"adv1": (101, False), "adv2": (202, False), "adv3": (303, True)}

# ---------------------------------------------------------------- differences 9.x -> 10.0


def _one_query(pair: tuple[str, str], qid: str) -> tuple[str, str]:
    qrels, run = pair
    return (
        "".join(line + "\n" for line in qrels.splitlines() if line.split(" ")[0] == qid),
        "".join(line + "\n" for line in run.splitlines() if line.split("\t")[0] == qid),
    )


_RBP = _one_query(adversarial(5059, missing=False), "514")  # found by random comparison

# name: files, args, what 9.x does, what 10.0 does, commit(s). {dir} is HERE.
DIFFERENCES: dict[str, dict] = {
    "double_scores": {
        "files": {
            "dbl.qrels": "q1 0 d1 0\nq1 0 d2 1\n",
            "dbl.run": "q1 Q0 d1 1 0.123456789 r\nq1 Q0 d2 2 0.123456788 r\n",
        },
        "args": ["-q", "-m", "P.1", "-m", "map", "{dir}/dbl.qrels", "{dir}/dbl.run"],
        "v9": "Scores are read into a 32-bit float: 0.123456789 and 0.123456788 become equal, "
        "the tie goes to the larger docno (d2, relevant): P_1 = 1, map = 1.",
        "v10": "Scores are doubles: d1 (0.123456789, not relevant) is first: P_1 = 0, map = 0.5.",
        "commit": "dc0c991 (Convert float to double)",
    },
    "iprec_lround": {
        "files": {
            "ipr.qrels": "q1 0 r1 1\nq1 0 r2 1\nq1 0 r3 1\nq1 0 r4 1\nq1 0 n1 0\nq1 0 n2 0\n",
            "ipr.run": "q1 Q0 r1 1 5 r\nq1 Q0 n1 2 4 r\nq1 Q0 n2 3 3 r\nq1 Q0 r2 4 2 r\nq1 Q0 r3 5 1 r\n",
        },
        "args": ["-q", "-m", "iprec_at_recall", "{dir}/ipr.qrels", "{dir}/ipr.run"],
        "v9": "The number of relevant documents needed at recall r is (long)(r*R + 0.9): R = 4, "
        "r = 0.3 needs 2 (0.6000), r = 0.8 needs 4 (0.0000).",
        "v10": "It is lround(r*R): r = 0.3 needs 1 (1.0000), r = 0.8 needs 3 (0.6000).",
        "commit": "2a9e214",
    },
    "11pt_lround": {
        "files": {},
        "args": ["-q", "-m", "11pt_avg", "{dir}/ipr.qrels", "{dir}/ipr.run"],
        "v9": "11pt_avg averages the eleven iprec values of the +0.9 rule: 0.5455.",
        "v10": "With lround: 0.6364.",
        "commit": "2d77a47",
    },
    "Rprec_mult_unchanged": {
        "files": {},
        "args": ["-q", "-m", "Rprec_mult", "{dir}/ipr.qrels", "{dir}/ipr.run"],
        "v9": "(long)(m*R + 0.9) documents.",
        "v10": "Unchanged: still (long)(m*R + 0.9) (m_Rprec_mult.c); same output as 9.x.",
        "commit": "none (checked: not a difference)",
    },
    "missing_query_exit_4": {
        "files": {
            "miss.qrels": "q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 1\nq2 0 d4 1\nq3 0 d5 1\n",
            "miss.run": "q1 Q0 d1 1 2 r\nq1 Q0 d9 2 1 r\nq3 Q0 d5 1 1 r\nq4 Q0 d7 1 1 r\n",
        },
        "args": ["-q", "-m", "num_ret", "-m", "P.5", "-m", "map", "{dir}/miss.qrels", "{dir}/miss.run"],
        "v9": "A judged query absent from the run (q2) is skipped silently; exit 0.",
        "v10": "The loop runs over the judged queries; without -c, q2 stops trec_eval with "
        "\"result qid 'q2' not found in qrels\" (sic) and exit 4, after the lines of the "
        "queries before it (q1) were printed.",
        "commit": "72d786a (loop over qrels topics), 9812815 (exit 4 instead of a stale ranking)",
    },
    "complete_prints_missing": {
        "files": {},
        "args": [
            "-c",
            "-q",
            "-m",
            "num_ret",
            "-m",
            "num_rel",
            "-m",
            "num_rel_ret",
            "-m",
            "map",
            "-m",
            "P.5",
            "-m",
            "relstring",
            "-m",
            "utility",
            "-m",
            "num_nonrel_judged_ret",
            "-m",
            "set_P",
            "-m",
            "bpref",
            "-m",
            "gm_map",
            "{dir}/miss.qrels",
            "{dir}/miss.run",
        ],
        "v9": "With -c -q, q2 is counted in the averages (as 0) but no line is printed for it.",
        "v10": "q2 is printed: it is scored on a one-document ranking (an unjudged docno "
        "'ceci_nest_pas_un_docno'), then num_ret, utility, relstring, unj* and rbp_resid are "
        "set to 0 / ''. The 'all' lines are those of 9.x.",
        "commit": "333bc6d, cbd7d08, 72d786a, 3d6be10",
    },
    "complete_zeroes_by_exact_name": {
        "files": {},
        "args": [
            "-c",
            "-q",
            "-m",
            "utility.1,-1,0,0",
            "-m",
            "relstring.3",
            "-m",
            "set_F.0.5",
            "-m",
            "num_ret",
            "{dir}/miss.qrels",
            "{dir}/miss.run",
        ],
        "v9": "No line for q2; in the 'all' line q2 counts 0: utility_1,-1,0,0 = 0.3333.",
        "v10": "The clean-up compares the printed name exactly: with parameters, "
        "utility_1,-1,0,0 keeps the fake document's -1 and relstring_3 shows '-' for q2, so the "
        "'all' utility_1,-1,0,0 is 0.0000.",
        "commit": "3d6be10",
    },
    "complete_new_measures": {
        "files": {},
        "args": [
            "-c",
            "-q",
            "-m",
            "rbp",
            "-m",
            "rbp_resid.p=0.5",
            "-m",
            "unj.2",
            "{dir}/miss.qrels",
            "{dir}/miss.run",
        ],
        "v9": "No such measures (illegal measure 'rbp', exit 1).",
        "v10": "For q2, rbp is the fake document's 0, unj_2 is zeroed (a name starting with 'unj'), "
        "but rbp_resid_p=0.5 keeps the fake document's residual: only the name 'rbp_resid' is zeroed.",
        "commit": "3d6be10",
    },
    "judged_only_nothing_judged": {
        "files": {"j.qrels": "q1 0 d1 1\nq2 0 d2 1\n", "j.run": "q1 Q0 d9 1 1 r\nq2 Q0 d2 1 1 r\n"},
        "args": [
            "-q",
            "-J",
            "-m",
            "iprec_at_recall.0,0.5",
            "-m",
            "11pt_avg",
            "-m",
            "map",
            "{dir}/j.qrels",
            "{dir}/j.run",
        ],
        "v9": "With -J, a query none of whose retrieved documents is judged has iprec_at_recall_0.00 = "
        "0/0, printed -nan, and so 11pt_avg and both 'all' lines are -nan.",
        "v10": "Unchanged (the same -nan lines).",
        "commit": "none (checked: not a difference)",
    },
    "complete_judged_only_nan": {
        "files": {},
        "args": [
            "-c",
            "-q",
            "-J",
            "-m",
            "iprec_at_recall.0,0.5",
            "-m",
            "11pt_avg",
            "-m",
            "map",
            "{dir}/miss.qrels",
            "{dir}/miss.run",
        ],
        "v9": "q2 (judged, not in the run) counts 0 in the 'all' lines: iprec_at_recall_0.00 = 0.6667.",
        "v10": "q2's fake document is unjudged, -J removes it, and q2 becomes the -nan case above: "
        "iprec_at_recall_0.00 and 11pt_avg are -nan for q2 and for 'all'.",
        "commit": "72d786a, 3d6be10",
    },
    "complete_num_rel_ignores_level": {
        "files": {
            "lvl.qrels": "q1 0 d1 2\nq1 0 d2 1\nq1 0 d3 0\n",
            "lvl.run": "q1 Q0 d2 1 2 r\nq1 Q0 d1 2 1 r\n",
        },
        "args": ["-c", "-q", "-l2", "-m", "num_rel", "-m", "num_rel_ret", "{dir}/lvl.qrels", "{dir}/lvl.run"],
        "v9": "With -c the 'all' line of num_rel counts every grade > 0 in the qrels, whatever -l says "
        "(m_num_rel.c): q1 has num_rel 1 at -l2, 'all' says 2.",
        "v10": "Unchanged.",
        "commit": "none (checked: not a difference)",
    },
    "all_trec_new_measures": {
        "files": {
            "base.qrels": "q1 0 d1 1\nq1 0 d2 0\nq1 0 d4 2\n",
            "base.run": "q1 Q0 d1 1 3 r\nq1 Q0 d3 2 2 r\nq1 Q0 d2 3 1 r\n",
        },
        "args": ["-q", "-m", "all_trec", "{dir}/base.qrels", "{dir}/base.run"],
        "v9": "all_trec has no unj, rbp, rbp_resid (9.x has no such measures).",
        "v10": "all_trec adds rbp, rbp_resid and unj_5/10/20, printed last (measure table order).",
        "commit": "853c363, 151f298, 6cb7ef3, 574423d, d19e2f8, 4e0ebd0",
    },
    "dcg_measures": {
        "files": {},
        "args": ["-q", "-m", "dcg", "-m", "ideal_dcg", "{dir}/base.qrels", "{dir}/base.run"],
        "v9": "illegal measure 'dcg', exit 1.",
        "v10": "dcg and ideal_dcg exist (not in all_trec), printed between G and ndcg.",
        "commit": "4f45926",
    },
    "dcg_with_gains_crash": {
        "files": {},
        "args": ["-q", "-m", "ndcg.1=3,2=9", "-m", "dcg", "{dir}/base.qrels", "{dir}/base.run"],
        "v9": "illegal measure 'dcg', exit 1.",
        "v10": "ndcg with a gain map together with dcg crashes (segmentation fault).",
        "commit": "4f45926 with 2b0beb7",
        "undefined": True,
    },
    "rbp_gains_alone": {
        "files": {"rbp.qrels": _RBP[0], "rbp.run": _RBP[1]},
        "args": ["-q", "-m", "rbp.p=0.6,2=3", "{dir}/rbp.qrels", "{dir}/rbp.run"],
        "v9": "No rbp.",
        "v10": "m_rbp.c rescales the gains to [0, 1] with a min and max that are never initialised: "
        "the value depends on what the stack held (undefined behaviour). Alone: one value ...",
        "commit": "6cb7ef3",
        "undefined": True,
    },
    "rbp_gains_after_ndcg": {
        "files": {},
        "args": ["-q", "-m", "ndcg.1=2,2=5,3=1", "-m", "rbp.p=0.6,2=3", "{dir}/rbp.qrels", "{dir}/rbp.run"],
        "v9": "No rbp.",
        "v10": "... and after ndcg with gains was computed, another value for the same query.",
        "commit": "6cb7ef3",
        "undefined": True,
    },
    "run_from_stdin": {
        "files": {},
        "args": ["-q", "-m", "num_ret", "-m", "map", "{dir}/base.qrels", "-"],
        "stdin": "{dir}/base.run",
        "v9": "'-' is a file name: Cannot read results file '-', exit 2.",
        "v10": "A results file name starting with '-' means standard input.",
        "commit": "1a15617",
    },
    "run_name_starting_with_dash": {
        "files": {},
        "args": ["-q", "-m", "num_ret", "{dir}/base.qrels", "--", "-no-such-file"],
        "stdin": "{dir}/base.run",
        "v9": "'-no-such-file' is a file name: Cannot read results file, exit 2.",
        "v10": "Any results file name starting with '-' (here after '--') is read from standard input.",
        "commit": "1a15617",
    },
    "qrels_comment": {
        "files": {"c1.qrels": "# judgements\nq1 0 d1 1\nq1 0 d2 0\nq1 0 d4 2\n"},
        "args": ["-q", "-m", "num_rel", "-m", "map", "{dir}/c1.qrels", "{dir}/base.run"],
        "v9": "Malformed line 1, exit 2 (a comment of exactly 4 fields would be read as a judgement of query '#').",
        "v10": "A qrels line starting with '#' in column 0 is skipped.",
        "commit": "7f8f356",
    },
    "qrels_two_comments": {
        "files": {"c2.qrels": "# first\n# second\nq1 0 d1 1\nq1 0 d2 0\nq1 0 d4 2\n"},
        "args": ["-q", "-m", "num_rel", "{dir}/c2.qrels", "{dir}/base.run"],
        "v9": "Malformed line 1, exit 2.",
        "v10": "Only one comment line is skipped before each line is parsed: the second of two "
        "comment lines in a row is parsed as a judgement: 'Malformed line 1', exit 2.",
        "commit": "7f8f356",
    },
    "qrels_two_comments_4_fields": {
        "files": {"c2b.qrels": "# one two three\n# four five six\nq1 0 d1 1\nq1 0 d2 0\nq1 0 d4 2\n"},
        "args": ["-q", "-m", "num_rel", "{dir}/c2b.qrels", "{dir}/base.run"],
        "v9": "Both comments are judgements of a query '#'; that query is not in the run and is "
        "skipped: exit 0.",
        "v10": "The second comment becomes a judgement of query '#' (docno 'five', grade "
        "atol('six') = 0); '#' is not in the run: exit 4.",
        "commit": "7f8f356",
    },
    "qrels_comment_last": {
        "files": {"c3.qrels": "q1 0 d1 1\nq1 0 d2 0\nq1 0 d4 2\n# last\n"},
        "args": ["-q", "-m", "num_rel", "{dir}/c3.qrels", "{dir}/base.run"],
        "v9": "Malformed line 4, exit 2.",
        "v10": "After a comment on the last line the parser reads past the end of the buffer "
        "(undefined behaviour): here a segmentation fault.",
        "commit": "7f8f356",
        "undefined": True,
    },
    "qrels_blank_line": {
        "files": {"blank.qrels": "q1 0 d1 1\n\nq1 0 d2 0\nq1 0 d4 2\n"},
        "args": ["-q", "-m", "num_rel", "{dir}/blank.qrels", "{dir}/base.run"],
        "v9": "Malformed line 2, exit 2.",
        "v10": "Unchanged: Malformed line 2, exit 2 (runs, unlike qrels, skip blank lines).",
        "commit": "none (checked: not a difference)",
    },
    "qrels_indented_comment": {
        "files": {"ind.qrels": "q1 0 d1 1\n  # indented x\nq1 0 d2 0\nq1 0 d4 2\n"},
        "args": ["-q", "-m", "num_rel", "{dir}/ind.qrels", "{dir}/base.run"],
        "v9": "Malformed line 2, exit 2.",
        "v10": "Unchanged: a '#' after spaces is not a comment in qrels: Malformed line 2, exit 2.",
        "commit": "none (checked: not a difference)",
    },
    "run_comments": {
        "files": {
            "c.run": "# c\n# c2 x y z w v\nq1 Q0 d1 1 3 r\n  # indented\nq1 Q0 d3 2 2 r\n"
            "q1 Q0 d2 3 1 r\n# end"
        },
        "args": ["-q", "-m", "num_ret", "-m", "map", "-m", "runid", "{dir}/base.qrels", "{dir}/c.run"],
        "v9": "Malformed line 1, exit 2.",
        "v10": "In a run any line whose first non-blank character is '#' is skipped: several in a "
        "row, indented, or the last line without a newline.",
        "commit": "e7eda76, f89e872",
    },
    "hash_qid": {
        "files": {
            "hq.qrels": "#5 0 d2 1\nq1 0 d1 1\n",
            "hq.run": "#5 Q0 d2 1 1 r\nq1 Q0 d1 1 2 r\n",
        },
        "args": ["-q", "-m", "num_ret", "-m", "num_rel", "{dir}/hq.qrels", "{dir}/hq.run"],
        "v9": "A query named '#5' is evaluated like any other.",
        "v10": "Its lines are comments, in both files: only q1 is evaluated.",
        "commit": "7f8f356, e7eda76",
    },
    "version": {
        "files": {},
        "args": ["-v"],
        "v9": "trec_eval version 9.0.7 (9.0.8's Makefile says 9.0.7), on stderr.",
        "v10": "trec_eval version 10.0-rc3 (the Makefile's VERSIONID), on stderr, exit 0.",
        "commit": "efe2f1e",
    },
}

# ---------------------------------------------------------------- 10.0's reading, flags and errors

# Not differences between the versions: what a drop-in must do the same way. {dir} is HERE.
_SUM1, _SUM2 = adversarial(1042, missing=True), adversarial(1017, missing=False)
_SUM3 = _one_query(adversarial(5064, missing=True), "249")
EDGES: dict[str, dict] = {
    # Found by comparing many random pairs: trec_eval adds values one at a time, in order (a
    # query's AP over the ranks, the 'all' mean over the queries), and on a value that lies
    # this close to a 4-decimal boundary another order of summation prints a different digit.
    "summation_order_mean": {
        "files": {"sum1.qrels": _SUM1[0], "sum1.run": _SUM1[1]},
        "args": ["-c", "-q", "-m", "P.1000", "{dir}/sum1.qrels", "{dir}/sum1.run"],
    },
    "summation_order_ap": {
        "files": {"sum2.qrels": _SUM2[0], "sum2.run": _SUM2[1]},
        "args": [
            "-c",
            "-q",
            "-J",
            "-l3",
            "-m",
            "map",
            "-m",
            "map_cut.20,30,100",
            "{dir}/sum2.qrels",
            "{dir}/sum2.run",
        ],
    },
    "summation_order_bpref": {
        "files": {"sum3.qrels": _SUM3[0], "sum3.run": _SUM3[1]},
        "args": ["-q", "-J", "-m", "bpref", "{dir}/sum3.qrels", "{dir}/sum3.run"],
    },
    "options_after_files": {"args": ["{dir}/base.qrels", "{dir}/base.run", "-q", "-m", "num_ret"]},
    "improper_parameter": {"args": ["-m", "P.", "{dir}/base.qrels", "{dir}/base.run"]},
    "illegal_measure_with_parameters": {
        "args": ["-m", "P.5", "-m", "no_such.5", "{dir}/base.qrels", "{dir}/base.run"]
    },
    "parameters_of_plain_measure": {
        "args": ["-q", "-m", "map.5", "-m", "Rprec.2", "{dir}/base.qrels", "{dir}/base.run"]
    },
    "duplicate_cutoffs": {"args": ["-m", "P.10,5,10", "{dir}/base.qrels", "{dir}/base.run"]},
    "zero_cutoff": {"args": ["-m", "P.0,5", "{dir}/base.qrels", "{dir}/base.run"]},
    "unsorted_cutoffs": {
        "args": [
            "-q",
            "-m",
            "P.20,1,3",
            "-m",
            "iprec_at_recall.0.9,0.25",
            "{dir}/base.qrels",
            "{dir}/base.run",
        ]
    },
    "max_zero": {
        "args": [
            "-M",
            "0",
            "-q",
            "-m",
            "map",
            "-m",
            "num_ret",
            "-m",
            "P.5",
            "{dir}/base.qrels",
            "{dir}/base.run",
        ]
    },
    "level_not_a_number": {
        "args": ["-q", "-l", "x", "-m", "map", "-m", "num_rel", "{dir}/atof.qrels", "{dir}/atof.run"]
    },
    "atof_atol": {
        "files": {
            "atof.qrels": "q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 1\nq1 0 d4 1x\nq1 0 d5 2\nq1 0 d6 +3\nq1 0 d7 -1\nq1 0 d8 0\n",
            "atof.run": "q1 Q0 d1 1 abc r\nq1 Q0 d2 2 0x10 r\nq1 Q0 d3 3 1e400 r\nq1 Q0 d4 4 5abc r\n"
            "q1 Q0 d5 5 +.5 r\nq1 Q0 d6 6 .5e1x r\nq1 Q0 d7 7 -1e400 r\nq1 Q0 d8 8 0x1p-2 r\n",
        },
        "args": ["-q", "-m", "relstring.8", "-m", "map", "-m", "ndcg", "{dir}/atof.qrels", "{dir}/atof.run"],
    },
    "run_duplicate_docno": {
        "files": {"dup.run": "q1 Q0 d1 1 3 r\nq1 Q0 d1 2 2 r\n"},
        "args": ["-q", "-m", "num_ret", "{dir}/base.qrels", "{dir}/dup.run"],
    },
    "qrels_duplicate_docno": {
        "files": {"dup.qrels": "q1 0 d1 1\nq1 0 d1 0\nq1 0 d2 0\n"},
        "args": ["-q", "-m", "num_rel", "{dir}/dup.qrels", "{dir}/base.run"],
    },
    "run_short_line": {
        "files": {"short.run": "q1 Q0 d1 1 3 r\nq1 Q0 d2 2 2\n"},
        "args": ["-m", "num_ret", "{dir}/base.qrels", "{dir}/short.run"],
    },
    "empty_qrels": {"files": {"empty.qrels": ""}, "args": ["{dir}/empty.qrels", "{dir}/base.run"]},
    "crlf_and_tabs": {
        "files": {
            "crlf.qrels": "q1\t0\td1\t1\r\nq1 0  d2 0\r\n",
            "crlf.run": "q1\tQ0\td1\t1\t3\tr\r\n  q1 Q0 d2 2 2 r extra fields\r\n",
        },
        "args": ["-q", "-m", "map", "-m", "num_ret", "-m", "runid", "{dir}/crlf.qrels", "{dir}/crlf.run"],
    },
}

# ---------------------------------------------------------------- flag combinations

Q, QL, RUN = f"{NIST}/qrels.test", f"{NIST}/qrels.rel_level", f"{NIST}/results.test"


def combinations() -> dict[str, dict]:
    cases: dict[str, dict] = {
        "nist_default": {"args": [Q, RUN]},
        "nist_q": {"args": ["-q", Q, RUN]},
        "nist_all_trec": {"args": ["-m", "all_trec", Q, RUN]},
        "nist_q_all_trec": {"args": ["-q", "-m", "all_trec", Q, RUN]},
        "nist_c_q_all_trec": {"args": ["-c", "-q", "-m", "all_trec", Q, RUN]},
        "nist_official": {"args": ["-m", "official", Q, RUN]},
        "nist_q_P_ndcg_cut": {"args": ["-q", "-m", "P.5,10", "-m", "ndcg_cut.3,11", Q, RUN]},
        "nist_q_gains": {
            "args": ["-q", "-m", "ndcg.1=3,2=9", "-m", "G.1=2,2=5", "-m", "ndcg_rel.2=4", QL, RUN]
        },
        "nist_q_l2_all_trec": {"args": ["-q", "-l2", "-m", "all_trec", QL, RUN]},
        "nist_q_l_2_relstring": {"args": ["-q", "-l", "2", "-m", "relstring.20", "-m", "P.5", QL, RUN]},
        "nist_q_J_all_trec": {"args": ["-q", "-J", "-m", "all_trec", Q, RUN]},
        "nist_N60_c": {"args": ["-N", "60", "-c", Q, RUN]},
        "nist_M10_q": {"args": ["-M", "10", "-q", Q, RUN]},
        "nist_M10_q_all_trec": {"args": ["-M", "10", "-q", "-m", "all_trec", Q, RUN]},
        "nist_n_q": {"args": ["-n", "-q", Q, RUN]},
        "nist_P5_P10": {"args": ["-q", "-m", "P.5", "-m", "P.10", Q, RUN]},
        "nist_q_setF_utility": {"args": ["-q", "-m", "set_F.0.5", "-m", "utility.1,-1,0,0", Q, RUN]},
        "nist_q_11pt": {"args": ["-q", "-m", "11pt_avg.0.0,0.5,1.0", Q, RUN]},
        "nist_q_rbp": {
            "args": ["-q", "-m", "rbp.p=0.5", "-m", "rbp_resid.p=0.95", "-m", "unj.3,50", QL, RUN]
        },
        "nist_long_options": {
            "args": [
                "--query_eval_wanted",
                "--measure=map",
                "--level_for_rel=2",
                "--Judged_docs_only",
                QL,
                RUN,
            ]
        },
        "nist_stdin": {"args": ["-q", "-m", "all_trec", Q, "-"], "stdin": RUN},
        "nist_R_T_defaults": {"args": ["-R", "qrels", "-T", "trec_results", "-m", "map", Q, RUN]},
        "illegal_measure": {"args": ["-m", "no_such_measure", Q, RUN]},
        "malformed_qrels": {"args": ["-q", f"{HERE}/blank.qrels", f"{HERE}/base.run"]},
        "missing_file": {"args": [f"{HERE}/no_such_file.qrels", RUN]},
        "usage": {"args": [Q]},
        "help": {"args": ["-h"]},
    }
    for name in ADVERSARIAL:
        qrels, run = f"{HERE}/{name}.qrels", f"{HERE}/{name}.run"
        cases[f"{name}_q_all_trec"] = {"args": ["-q", "-m", "all_trec", qrels, run]}
        cases[f"{name}_c_q_all_trec"] = {"args": ["-c", "-q", "-m", "all_trec", qrels, run]}
        cases[f"{name}_q_l2_all_trec"] = {"args": ["-q", "-l2", "-m", "all_trec", qrels, run]}
        cases[f"{name}_c_q_l2_all_trec"] = {"args": ["-c", "-q", "-l2", "-m", "all_trec", qrels, run]}
        cases[f"{name}_c_q_J_all_trec"] = {"args": ["-c", "-q", "-J", "-m", "all_trec", qrels, run]}
        cases[f"{name}_c_q_M5"] = {
            "args": ["-c", "-q", "-M", "5", "-m", "P.1,2,5", "-m", "map", "-m", "ndcg_cut.3", qrels, run]
        }
        cases[f"{name}_c_q_gains"] = {
            "args": [
                "-c",
                "-q",
                "-m",
                "ndcg.1=3,2=9,3=0",
                "-m",
                "rbp.p=0.8",
                "-m",
                "Rndcg.1=1,2=2",
                qrels,
                run,
            ]
        }
    return cases


# ---------------------------------------------------------------- running


def run_case(binary: str, args: list[str], stdin: str | None) -> dict:
    with open(ROOT / stdin, "rb") if stdin else open(os.devnull, "rb") as given:
        done = subprocess.run(
            [binary, *args], check=False, cwd=ROOT, stdin=given, capture_output=True, timeout=120
        )
    return {"exit_code": done.returncode, "stdout": done.stdout, "stderr": done.stderr}


def record(binary: str, name: str, case: dict, folder: str) -> dict:
    args = [a.format(dir=HERE) for a in case["args"]]
    stdin = case["stdin"].format(dir=HERE) if case.get("stdin") else None
    result = run_case(binary, args, stdin)
    (OUT / folder).mkdir(exist_ok=True)
    for stream in ("stdout", "stderr"):
        (OUT / folder / f"{name}.{stream}").write_bytes(result[stream])
    entry = {
        "args": args,
        "stdin": stdin,
        "exit_code": result["exit_code"],
        "stdout": f"{folder}/{name}.stdout",
        "stderr": f"{folder}/{name}.stderr",
    }
    if case.get("undefined"):
        entry["undefined"] = True  # undefined behaviour in trec_eval: not a reference to match
    return entry


def version_text(binary: str) -> str:
    done = subprocess.run([binary, "-v"], check=False, capture_output=True, text=True, timeout=30)
    return (done.stdout + done.stderr).strip()


def block(data: bytes, limit: int = 40) -> str:
    text = data.decode("utf-8", "replace").rstrip("\n")
    lines = text.split("\n") if text else []
    if len(lines) > limit:
        lines = lines[:limit] + [f"... ({len(lines) - limit} more lines)"]
    return "\n".join(lines) if lines else "(empty)"


def markdown(version: str, date: str, index: dict, index9: dict, version9: str | None) -> str:
    out = [
        "# trec_eval 9.x and 10.0: what changed",
        "",
        "Written by `benchmarks/trec_eval_reference.py` (do not edit by hand): each row's",
        "command was run on the tiny files beside this one, and the outputs below are what the",
        "binary printed. The audit read `git log -p v9.0.8..f425365` of NIST's trec_eval;",
        "reformatting (e0c2884, GNU indent), the comparison functions' signatures for GCC 15",
        "(0e041ae), Windows builds and the preference formats change no output of the",
        "`qrels`/`trec_results` formats and are left out.",
        "",
        "A row whose commit is 'none' was checked and does not differ; a row of undefined",
        "behaviour (a crash, or a value that depends on uninitialised memory) is a trec_eval bug,",
        "not a reference: index.json marks it `undefined` and no test compares it.",
        "",
        f"- trec_eval 10.0: `{version}`; recorded {date}.",
        f"- trec_eval 9.x: `{version9}`." if version9 else "- trec_eval 9.x: not run (prose only).",
        "",
        "| # | difference | 9.x | 10.0 | commit | case |",
        "|---|---|---|---|---|---|",
    ]
    for i, (name, diff) in enumerate(DIFFERENCES.items(), 1):
        out.append(
            f"| {i} | {name.replace('_', ' ')} | {diff['v9']} | {diff['v10']} | {diff['commit']} | "
            f"[`{name}`](#{name.lower()}) |".replace("\n", " ")
        )
    out += ["", "## The cases", ""]
    shown: dict[str, str] = {}  # input file: the case that showed it first
    for name, diff in DIFFERENCES.items():
        entry = index[name]
        command = "trec_eval " + " ".join(entry["args"])
        if entry["stdin"]:
            command += f" < {entry['stdin']}"
        out += [f"### {name}", "", "```", command, "```", ""]
        for file in [
            Path(a).name for a in [*entry["args"], entry["stdin"] or ""] if a.startswith(HERE + "/")
        ]:
            if file in shown:
                out += [f"`{file}`: as in [`{shown[file]}`](#{shown[file].lower()}).", ""]
                continue
            shown[file] = name
            text = (OUT / file).read_text(encoding="utf-8")
            out += [f"`{file}`:", "", "```", text.rstrip("\n"), "```", ""]
        for label, found in (("trec_eval 10.0", entry), ("trec_eval 9.x", index9.get(name))):
            if found is None:
                continue
            out += [
                f"{label}: exit code {found['exit_code']}"
                + (" (undefined behaviour)" if found.get("undefined") else ""),
                "",
                "```",
                block((OUT / found["stdout"]).read_bytes()),
                "```",
                "",
                "stderr:",
                "",
                "```",
                block((OUT / found["stderr"]).read_bytes()),
                "```",
                "",
            ]
    out += [
        "## Other recorded cases",
        "",
        "Not differences between the versions, but how trec_eval 10.0 reads files and flags and",
        "where it stops (outputs in `outputs/`, listed in index.json):",
        "",
        "| case | command | exit code |",
        "|---|---|---|",
    ]
    for name in EDGES:
        entry = index[name]
        out.append(f"| `{name}` | `trec_eval {' '.join(entry['args'])}` | {entry['exit_code']} |")
    out.append("")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trec-eval", required=True, help="path of a NIST trec_eval 10.0 binary")
    parser.add_argument("--trec-eval-9", help="optional: a trec_eval 9.x binary, for the differences")
    options = parser.parse_args(argv)
    for binary in filter(None, [options.trec_eval, options.trec_eval_9]):
        if not os.access(binary, os.X_OK):
            parser.error(f"{binary} is not an executable file")
    binary = str(Path(options.trec_eval).resolve())
    OUT.mkdir(parents=True, exist_ok=True)

    for name, (seed, missing) in ADVERSARIAL.items():
        qrels, run = adversarial(seed, missing=missing)
        (OUT / f"{name}.qrels").write_text(qrels, encoding="utf-8")
        (OUT / f"{name}.run").write_text(run, encoding="utf-8")
    for diff in [*DIFFERENCES.values(), *EDGES.values()]:
        for file, text in diff.get("files", {}).items():
            (OUT / file).write_text(text, encoding="utf-8")

    version = version_text(binary)
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    cases = {**combinations(), **EDGES, **DIFFERENCES}
    index = {name: record(binary, name, case, "outputs") for name, case in cases.items()}
    index9: dict = {}
    version9 = None
    if options.trec_eval_9:
        binary9 = str(Path(options.trec_eval_9).resolve())
        version9 = version_text(binary9)
        index9 = {name: record(binary9, name, case, "outputs9") for name, case in DIFFERENCES.items()}
    data = {
        "script": "benchmarks/trec_eval_reference.py",
        "trec_eval_version": version,
        "date": date,
        "cases": index,
    }
    if version9:
        data["trec_eval_9_version"] = version9
        data["trec_eval_9_cases"] = index9
    (OUT / "index.json").write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    (OUT / "VERSION_DIFFERENCES.md").write_text(
        markdown(version, date, index, index9, version9), encoding="utf-8"
    )
    print(f"{version}: {len(index)} cases written to {OUT.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
