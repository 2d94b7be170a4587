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
