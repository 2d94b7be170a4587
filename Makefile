# Two commands set everything up on a fresh machine that has python3:
#   make test   - the package's tests, doctests, property tests (fast profile), notebooks, lint
#   make book   - the HTML book in _build/html
# Both create .venv from requirements.txt on first use.
#   make pdf    - optional: the whole book as one PDF, _build/latex/book.pdf (needs TeX, below)

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: book pdf print-pdf-packages test test-browser test-cluster test-scripts test-all notebooks messages clean

$(STAMP): requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	$(BIN)/python -m pip install --quiet --no-deps -e .
	@# Build matplotlib's font cache here, so its first-run message never lands in a notebook.
	$(BIN)/python -c "import matplotlib.font_manager"
	touch $(STAMP)

# make test leaves out three tiers (markers in pyproject.toml), each run by its own target and by .ci/run.
# Two workers; --dist loadfile keeps a notebook's cells (nbval) in one kernel, one worker.
# HYPOTHESIS_PROFILE=ci (set by .ci/run) gives the property tests their full counts.
TIERS  := browser or cluster or scripts
PYTEST := $(BIN)/python -m pytest -n 2 --dist loadfile

test: $(STAMP)
	$(PYTEST) -m "not ($(TIERS))"

# tests/browser: the built book in Chromium (builds the book first when it is out of date)
test-browser: $(STAMP)
	$(BIN)/python -m pytest -m browser tests/browser

# tests/dask: rankmetrics.dask on a LocalCluster of two worker processes
test-cluster: $(STAMP)
	$(BIN)/python -m pytest -m cluster tests/dask

# the benchmark's smoke run and the limits script, end to end
test-scripts: $(STAMP)
	$(PYTEST) -m scripts tests/package

# every tier but Spark (make test-spark has its own venv)
test-all: test test-browser test-cluster test-scripts

book: $(STAMP)
	$(BIN)/jupyter-book build . -W -n --keep-going

# The PDF: XeLaTeX with kotex and the Nanum fonts (settings under latex in _config.yml),
# then tools/check_pdf.py (every chapter title, Hangul text, figures, no raw HTML).
# Debian/Ubuntu: sudo apt-get install --no-install-recommends $(PDF_PACKAGES)
PDF_PACKAGES := texlive-xetex texlive-lang-korean latexmk texlive-latex-extra \
	texlive-fonts-recommended texlive-plain-generic fonts-nanum fonts-dejavu-core poppler-utils
PDF_TOOLS    := xelatex latexmk pdftotext pdfinfo pdfimages kpsewhich fc-list

pdf: $(STAMP)
	@for tool in $(PDF_TOOLS); do command -v $$tool >/dev/null || missing="$$missing $$tool"; done; \
	if [ -z "$$missing" ]; then \
	  kpsewhich kotex.sty >/dev/null || missing=" kotex.sty"; \
	  for font in NanumMyeongjo NanumGothic NanumGothicCoding "DejaVu Serif" "DejaVu Sans Mono"; do \
	    [ -n "$$(fc-list ":family=$$font")" ] || missing="$$missing font:$$font"; done; \
	fi; \
	if [ -n "$$missing" ]; then \
	  echo "make pdf: missing$$missing" >&2; \
	  echo "  install: sudo apt-get install --no-install-recommends $(PDF_PACKAGES)" >&2; exit 1; \
	fi
	$(BIN)/jupyter-book build . --builder pdflatex -W -n --keep-going
	$(BIN)/python tools/check_pdf.py _build/latex/book.pdf

print-pdf-packages:
	@echo $(PDF_PACKAGES)

# Re-execute every chapter notebook top to bottom in a fresh kernel (authors only).
notebooks: $(STAMP)
	$(BIN)/python tools/run_notebooks.py

# After adding or changing a text in the package: add new message ids to the Korean catalogue
# (rankmetrics/locale/ko/LC_MESSAGES/rankmetrics.po; fill in the empty msgstr lines) and compile it.
messages: $(STAMP)
	$(BIN)/python tools/messages.py

clean:
	rm -rf _build

# The Spark tier: rankmetrics.spark against the local evaluate on local[2], in its own venv
# (pyspark from PyPI is a ~456 MB sdist; it builds in about a minute). The workers run the
# venv's Python (PYSPARK_PYTHON), with rankmetrics installed there as a built wheel.
# pandas < 3: pyspark 4.3 warns that it does not yet fully support pandas 3.
# Needs Java 17+; without it the tests skip, except under CI=true, where they fail.
SPARK_VENV := .venv-spark
SPARK_STAMP := $(SPARK_VENV)/.installed

$(SPARK_STAMP): pyproject.toml
	$(PYTHON) -m venv $(SPARK_VENV)
	$(SPARK_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(SPARK_VENV)/bin/python -m pip install --quiet "pyspark[sql]==4.3.0" "pandas<3" pyarrow numpy pytest
	touch $(SPARK_STAMP)

.PHONY: test-spark
test-spark: $(SPARK_STAMP)
	rm -rf dist-spark && $(SPARK_VENV)/bin/python -m pip wheel --quiet --no-deps --no-build-isolation -w dist-spark . \
	  || $(SPARK_VENV)/bin/python -m pip wheel --quiet --no-deps -w dist-spark .
	$(SPARK_VENV)/bin/python -m pip install --quiet --force-reinstall --no-deps dist-spark/rankmetrics-*.whl
	cd tests/spark && PYSPARK_PYTHON=$(CURDIR)/$(SPARK_VENV)/bin/python PYSPARK_DRIVER_PYTHON=$(CURDIR)/$(SPARK_VENV)/bin/python \
	  $(CURDIR)/$(SPARK_VENV)/bin/python -m pytest -p no:cacheprovider -c $(CURDIR)/tests/spark/pytest.ini .
