# Two commands on a fresh clone:  `make run` (serve on 127.0.0.1:8000)  and  `make test` (the whole suite).
# Each creates the local virtualenv and installs what it needs first.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
# pytest-xdist workers; the suite is sized for a 2-core machine
TEST_WORKERS ?= 2

.PHONY: run test lint-spec bench clean

$(VENV)/.run-deps: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet --editable .
	touch $@

$(VENV)/.test-deps: pyproject.toml $(VENV)/.run-deps
	$(PY) -m pip install --quiet --editable '.[test]'
	touch $@

run: $(VENV)/.run-deps
	HOST=$(HOST) PORT=$(PORT) $(VENV)/bin/gunicorn --config gunicorn.conf.py service.wsgi:app

test: $(VENV)/.test-deps
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadgroup

bench: $(VENV)/.test-deps
	$(PY) bench/ofc_pineapple.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
