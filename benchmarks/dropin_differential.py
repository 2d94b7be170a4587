"""`rankmetrics trec_eval` against a NIST trec_eval 10.0 binary on random inputs and flags.

Not a test (the tests read only committed outputs, tests/data/trec_eval_10); a tool for
whoever changes the drop-in or the reader: it runs the binary you name and
``rankmetrics.trec.dropin.main`` on the same arguments and compares standard output,
standard error and exit code byte for byte. Two kinds of input:

* ``--flags N``: random flag and measure combinations over NIST's test files and the
  committed adversarial pairs (tests/data/trec_eval_10/adv*.qrels/run);
* ``--files N``: small random files with the line quirks trec_eval 10.0 has rules for
  (comments in and out of column 0, blank and short lines, tabs, CRLF, trailing blanks,
  a last line without a line end, duplicates, queries missing from either file), with
  numbers that both read alike.

A case where the binary dies (a negative exit code: trec_eval's own crashes) is skipped.
The drop-in refuses on purpose what trec_eval misreads or leaves undefined (see
rankmetrics/trec/dropin.py); such inputs are not generated (every random run has a
results line: without one, trec_eval prints its runid from uninitialised memory).

Usage (from the repository's root):

    python benchmarks/dropin_differential.py --trec-eval /path/to/trec_eval --flags 300 --files 300
"""

from __future__ import annotations

import argparse
import io
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rankmetrics.trec import dropin

HERE = "tests/data/trec_eval_10"
NIST = "book/data/trec_eval"
PAIRS = [(f"{HERE}/adv{i}.qrels", f"{HERE}/adv{i}.run") for i in (1, 2, 3)] + [
    (f"{NIST}/qrels.test", f"{NIST}/results.test"),
    (f"{NIST}/qrels.rel_level", f"{NIST}/results.test"),
]
FLAGS = [[], ["-q"], ["-c"], ["-J"], ["-l2"], ["-l", "3"], ["-M", "3"], ["-M1"], ["-M", "0"]]
FLAGS += [["-n", "-q"], ["-N", "100"], ["-c", "-J"], ["-J", "-M2"]]
MEASURES = [
    ["-m", "all_trec"],
    ["-m", "official"],
    [],
    ["-m", "P.1,3", "-m", "recall.2"],
    ["-m", "ndcg.0=1,1=2,2=5"],
    ["-m", "set"],
    ["-m", "G.1=3", "-m", "Rndcg.2=1"],
    ["-m", "dcg", "-m", "ideal_dcg"],
    ["-m", "relstring.5", "-m", "unj.1,3"],
    ["-m", "11pt_avg.0.1,0.9", "-m", "iprec_at_recall.0.33"],
    ["-m", "rbp.p=0.7", "-m", "rbp_resid.p=0.7"],
    ["-m", "utility.2,-1,1,0", "-m", "set_F.2"],
    ["-m", "Rprec_mult.0.3,1.5"],
    ["-m", "success.1,2", "-m", "map_cut.3"],
]


def qrels_text(rng: random.Random) -> str:
    lines = []
    for _ in range(rng.randint(1, 12)):
        kind = rng.random()
        if kind < 0.1:
            lines.append("# c " + rng.choice(["x", "1 2 3", "q9 0 z 1"]))
        elif kind < 0.13:
            lines.append("")
        elif kind < 0.16:
            lines.append("  # indented 1 2")
        elif kind < 0.18:
            lines.append(f"q{rng.randint(1, 3)} 0 d{rng.randint(1, 3)}")
        else:
            space, end = rng.choice([" ", "\t", "  "]), rng.choice(["", " ", "\r"])
            lines.append(
                f"q{rng.randint(1, 3)}{space}0 d{rng.randint(1, 6)} {rng.choice([0, 1, 2, -1])}{end}"
            )
    return "\n".join(lines) + ("\n" if rng.random() < 0.8 else "")


def run_text(rng: random.Random) -> str:
    lines = []
    for _ in range(rng.randint(1, 15)):
        kind = rng.random()
        if kind < 0.1:
            lines.append(rng.choice(["# r", "   # x y", "#"]))
        elif kind < 0.15:
            lines.append(rng.choice(["", "   "]))
        elif kind < 0.17:
            lines.append(f"q{rng.randint(1, 3)} Q0 d1 1 2")
        else:
            score = rng.choice(["1", "2.5", "-3", "1e-3", "0.1234567891", "7"])
            end = rng.choice(["", " extra", "\r"])
            lines.append(f"q{rng.randint(1, 4)} Q0 d{rng.randint(1, 6)} 1 {score} t{rng.randint(1, 2)}{end}")
    if not any(line.count(" ") >= 5 for line in lines):  # at least one results line (see above)
        lines.append("q1 Q0 d1 1 1 t1")
    return "\n".join(lines) + ("\n" if rng.random() < 0.8 else "")


def compare(binary: str, args: list[str]) -> tuple[bool, str] | None:
    done = subprocess.run([binary, *args], capture_output=True, cwd=ROOT, check=False)
    if done.returncode < 0:
        return None  # trec_eval crashed
    out, err = io.StringIO(), io.StringIO()
    code = dropin.main(args, out, err, io.StringIO())
    ours = (code, out.getvalue().encode("utf-8"), err.getvalue().encode("utf-8"))
    same = ours == (done.returncode, done.stdout, done.stderr)
    return same, "" if same else f"{args}: ours {ours[0]} {ours[2][:200]!r}, trec_eval's {done.returncode}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trec-eval", required=True, help="path of a NIST trec_eval 10.0 binary")
    parser.add_argument("--flags", type=int, default=200, help="random flag combinations")
    parser.add_argument("--files", type=int, default=200, help="random small file pairs")
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args(argv)
    rng = random.Random(options.seed)
    os.chdir(ROOT)
    compared = differ = 0
    for _ in range(options.flags):
        qrels, run = rng.choice(PAIRS)
        found = compare(
            options.trec_eval, [*rng.choice(FLAGS), *rng.choice(FLAGS), *rng.choice(MEASURES), qrels, run]
        )
        if found is not None:
            compared, differ = compared + 1, differ + (not found[0])
            if not found[0]:
                print(found[1])
    with tempfile.TemporaryDirectory() as folder:
        qrels, run = f"{folder}/x.qrels", f"{folder}/x.run"
        for _ in range(options.files):
            Path(qrels).write_text(qrels_text(rng), encoding="utf-8")
            Path(run).write_text(run_text(rng), encoding="utf-8")
            flags = rng.choice([["-q"], ["-q", "-c"], ["-q", "-J"], [], ["-q", "-m", "num_q", "-m", "runid"]])
            found = compare(options.trec_eval, [*flags, qrels, run])
            if found is not None:
                compared, differ = compared + 1, differ + (not found[0])
                if not found[0]:
                    print(found[1])
    print(f"{compared} cases compared, {differ} differ", file=sys.stderr)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
