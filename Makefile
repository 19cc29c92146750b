# Two commands do all the set-up on a fresh machine: `make report` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
NOTEBOOKS := $(sort $(wildcard notebooks/*.ipynb))
STAMP := $(VENV)/.installed
# trackio pins Pillow below 13 (this project uses 13): the tests write trackio's database through
# trackio's own API from an environment of its own
TRACKIO_VENV := .venv-trackio
TRACKIO := trackio==0.43.*
# The real writers of three formats, each pinning its own stack, in an environment of their own:
# Inspect AI writes the tests' .eval logs with its own eval() (a mock model); Every Eval Ever's
# converter turns them into its schema (every-eval-ever declares Python >= 3.12, but its
# converter and schema run on 3.11 with inspect-ai and jsonschema, so it is installed without
# its declared plotting and hub dependencies); SwanLab 0.10 writes run-<id>.swanlab and
# SwanLab 0.6 (its own folder, on PYTHONPATH) the older backup.swanlab
WRITERS_VENV := .venv-writers
WRITERS := inspect-ai==0.3.285 swanlab==0.10.3 jsonschema==4.26.*
EEE := every-eval-ever==0.3.0
SWANLAB_OLD := swanlab==0.6.12

# Debian packages: Liberation fonts (charts name them, so PNGs are the same on every machine),
# chromium (browser tests), iproute2 (the offline-execution test), Java 17 (local Spark for the
# `--engine spark` tests). Installed when missing.
APT_PACKAGES := fonts-liberation chromium iproute2 openjdk-17-jre-headless

# One BLAS/OpenMP thread per process: the matrices here are tiny, OpenBLAS sizes its thread pool
# by the CPUs it sees (not a container's quota), and a reduction split over threads can round
# differently. Kernels, JupyterLab and tests inherit these.
export OPENBLAS_NUM_THREADS ?= 1
export OMP_NUM_THREADS ?= 1
export MKL_NUM_THREADS ?= 1
# Python's bytecode cache as Python keeps it by default: an environment that sets
# PYTHONDONTWRITEBYTECODE (this one does) has every process compile the package's and the
# tests' sources again; the fast tier took 80 s so, 60 s with the cache (__pycache__ is ignored).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: install report test test-fast nbval lab lint format clean rehash system bench

install: system $(STAMP)

system:
	@if ! dpkg -s $(APT_PACKAGES) >/dev/null 2>&1; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			echo "installing $(APT_PACKAGES)"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(APT_PACKAGES) >/dev/null; \
		else \
			echo "warning: please install $(APT_PACKAGES) (Debian/Ubuntu package names)" >&2; \
		fi; \
	fi

$(STAMP): pyproject.toml Makefile
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python >= 3.11 is needed; set PYTHON=/path/to/python3.11")'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[lab,test,spark,trackers]'
	$(PY) -m ipykernel install --sys-prefix --name python3 --display-name 'Python 3 (reasoning-figures)' >/dev/null
	test -x $(TRACKIO_VENV)/bin/python || $(PYTHON) -m venv $(TRACKIO_VENV)
	$(TRACKIO_VENV)/bin/python -m pip install --quiet '$(TRACKIO)'
	test -x $(WRITERS_VENV)/bin/python || $(PYTHON) -m venv $(WRITERS_VENV)
	$(WRITERS_VENV)/bin/python -m pip install --quiet $(WRITERS)
	$(WRITERS_VENV)/bin/python -m pip install --quiet --no-deps --ignore-requires-python '$(EEE)'
	$(WRITERS_VENV)/bin/python -m pip install --quiet --no-deps --upgrade --target $(WRITERS_VENV)/swanlab-0.6 '$(SWANLAB_OLD)'
	touch $@

# Execute every notebook top to bottom, in place, with no timestamps (re-execution is byte-identical).
report: install
	$(PY) -m helpers.render.execute $(NOTEBOOKS)
	$(PY) -m helpers.render.site

test: install
	$(PY) -m pytest

# The fast tier, for every edit (48-51 s from make to exit on 2 cores on 2026-11-28, three
# runs, 38-41 s on another machine that day; it was 88 s): the readers, the statistics, the
# chart specs and the package's shape; no notebook, browser, Spark or writer process. The chart
# tests are two files, the figures' and a run's, so that they go to two workers.
# `make test` (the README's and CI's command) runs these and everything else.
FAST_TESTS := tests/test_stats.py tests/test_student_t.py tests/test_seeds.py \
	tests/test_readers.py tests/test_summarise.py tests/test_leaderboards.py \
	tests/test_long_tables.py tests/test_framework_logs.py tests/test_answer_dumps.py \
	tests/test_architecture.py tests/test_charts.py tests/test_run_charts.py tests/test_inputs.py
test-fast: install
	$(PY) -m pytest $(FAST_TESTS)

# nbval itself on the committed notebooks (`make test` executes them once and checks the bytes,
# which implies nbval's output comparison)
nbval: install
	$(PY) -m pytest --nbval --nbval-current-env notebooks

lab: install
	$(VENV)/bin/jupyter lab --notebook-dir=notebooks

lint: $(STAMP)
	$(VENV)/bin/ruff check helpers tests benchmarks notebooks
	$(VENV)/bin/ruff format --check helpers tests benchmarks notebooks

format: $(STAMP)
	$(VENV)/bin/ruff format helpers tests benchmarks notebooks
	$(VENV)/bin/ruff check --fix helpers tests benchmarks notebooks

clean:
	rm -rf $(VENV) $(TRACKIO_VENV) $(WRITERS_VENV) site .pytest_cache test-artifacts

# After editing a file in data/, record its new checksum in data/datapackage.json.
rehash: $(STAMP)
	$(PY) -c 'import helpers.data as d; print("rehashed:", d.rehash() or "nothing changed")'

# Speed and memory as whole processes, against DuckDB, pandas, tbparse, TensorBoard and the bare
# stack (prints medians and ratios; takes about 25 minutes). The peers of the trackers' benchmark
# are the `bench` extra, installed here only.
bench: install
	$(PY) -m pip install --quiet -e '.[bench]'
	$(PY) benchmarks/report.py  # each script in turn; their tables kept in docs/speed-latest.md
