# Two commands set everything up on a fresh machine that has python3:
#   make test   - every test (unit, doctests, property tests, notebooks)
#   make book   - the HTML book in _build/html
# Both create .venv from requirements.txt on first use.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: book test notebooks clean

$(STAMP): requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	$(BIN)/python -m pip install --quiet --no-deps -e .
	@# Build matplotlib's font cache here, so its first-run message never lands in a notebook.
	$(BIN)/python -c "import matplotlib.font_manager"
	touch $(STAMP)

test: $(STAMP)
	$(BIN)/python -m pytest

book: $(STAMP)
	$(BIN)/jupyter-book build . -W -n --keep-going

# Re-execute every chapter notebook top to bottom in a fresh kernel (authors only).
notebooks: $(STAMP)
	$(BIN)/python tools/run_notebooks.py

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
