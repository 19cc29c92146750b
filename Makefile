# Two commands do all the set-up on a fresh machine: `make report` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
NOTEBOOKS := $(sort $(wildcard notebooks/*.ipynb))
STAMP := $(VENV)/.installed

.PHONY: install report test lab lint format clean rehash

install: $(STAMP)

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python >= 3.11 is needed; set PYTHON=/path/to/python3.11")'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[lab,test]'
	$(PY) -m ipykernel install --sys-prefix --name python3 --display-name 'Python 3 (reasoning-figures)' >/dev/null
	touch $@

# Execute every notebook top to bottom, in place, with no timestamps (re-execution is byte-identical).
report: $(STAMP)
	$(PY) -m helpers.report $(NOTEBOOKS)

test: $(STAMP)
	$(PY) -m pytest

lab: $(STAMP)
	$(VENV)/bin/jupyter lab --notebook-dir=notebooks

lint: $(STAMP)
	$(VENV)/bin/ruff check helpers tests benchmarks
	$(VENV)/bin/ruff format --check helpers tests benchmarks

format: $(STAMP)
	$(VENV)/bin/ruff format helpers tests benchmarks
	$(VENV)/bin/ruff check --fix helpers tests benchmarks

clean:
	rm -rf $(VENV) site .pytest_cache

# After editing a file in data/, record its new checksum in data/datapackage.json.
rehash: $(STAMP)
	$(PY) -c 'import helpers.data as d; print("rehashed:", d.rehash() or "nothing changed")'
