# Two commands on a fresh clone:  `make run` (serve on 127.0.0.1:8000)  and  `make test` (the whole suite).
# Each creates the local virtualenv and installs what it needs first.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
# pytest-xdist workers; the suite is sized for a 2-core machine
TEST_WORKERS ?= 2

.PHONY: run test lint test-tools clients-tools bench sizing clean container-check fuzz load zh-cn image clients

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(VENV)/.run-deps: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --editable .
	touch $@

# The clients extra of pyproject.toml alone (scripts/build-clients --requirements lists it), not the project.
$(VENV)/.clients-deps: pyproject.toml | $(PY)
	$(PY) scripts/build-clients --requirements | $(PY) -m pip install --quiet --requirement /dev/stdin
	touch $@

$(VENV)/.test-deps: pyproject.toml $(VENV)/.run-deps
	$(PY) -m pip install --quiet --editable '.[test]'
	touch $@

run: $(VENV)/.run-deps
	HOST=$(HOST) PORT=$(PORT) $(VENV)/bin/gunicorn --config gunicorn.conf.py service.wsgi:app

# The programs the integration tests drive (Debian's chromium, nginx and curl; openapi-typescript and typescript
# from npm into .tools/node): installed when missing, a quick check otherwise. Debian packages need root:
# without root (and outside CI) a failed install is reported and the suite runs; the tests that need the
# missing programs skip with the same message (README, "Testing").
test-tools:
	@bash scripts/install-test-tools || { [ "$$(id -u)" != 0 ] && [ -z "$$CI" ] \
		&& echo "make test: continuing without them; the tests that drive them will be skipped" >&2; }

test: $(VENV)/.test-deps test-tools
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadgroup

# ruff's lint rules on the code and mypy (strict) on all of service/; both configured in pyproject.toml.
lint: $(VENV)/.test-deps
	$(VENV)/bin/ruff check service tests bench scripts
	$(VENV)/bin/ruff format --check service tests bench scripts
	$(VENV)/bin/mypy

# The Simplified Chinese catalogs, the messages.zh-CN.json files, regenerated from the zh-TW texts (OpenCC,
# then the reviewed terms in scripts/zh-cn-terms.toml); run it after adding or changing a catalog text and
# review the entries it prints. The suite fails while a file is not current.
zh-cn: $(VENV)/.test-deps
	$(PY) scripts/build-zh-cn

bench: $(VENV)/.test-deps
	$(PY) bench/ofc_pineapple.py

# Long fuzzing (README, "Production"): hypothesis on the card parser and every request schema with the
# "fuzz" profile, then schemathesis against gunicorn, FUZZ_EXAMPLES examples per operation, fixed seed.
FUZZ_EXAMPLES ?= 2000
fuzz: $(VENV)/.test-deps
	CARD_RULES_FUZZ=1 CARD_RULES_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(PY) -m pytest -n $(TEST_WORKERS) --dist loadgroup \
		-p no:cacheprovider --hypothesis-profile fuzz tests/production/test_fuzz.py tests/production/test_fuzz_contract.py

# 60 s of mixed load on 64 connections, one worker killed midway, then SIGTERM (bench/load.py --help).
load: $(VENV)/.test-deps
	$(PY) bench/load.py --kill-worker

# Requests per second per core for every operation, and memory per worker (README, "Scale-out and sizing").
sizing: $(VENV)/.test-deps
	$(PY) bench/sizing.py

# The release image, card-rules-service:<version in pyproject.toml>, with its OCI labels (version, revision,
# source, ...) read from pyproject.toml and git (scripts/build-image; podman, or docker without podman).
# BUILD_ARGS go to the engine's build as they are, e.g. behind a TLS-intercepting proxy (README, "Container"):
#   make image BUILD_ARGS='--volume /etc/ssl/certs/ca-certificates.crt:/etc/ssl/certs/ca-certificates.crt:ro --build-arg PIP_CERT=/etc/ssl/certs/ca-certificates.crt'
# IMAGE_NAME and CONTAINER_ENGINE, given, reach the script from the environment.
BUILD_ARGS ?=
image:
	bash scripts/build-image $(BUILD_ARGS)

# Node.js, npm and openapi-typescript only (scripts/install-test-tools npm): what the TypeScript package needs.
clients-tools:
	@bash scripts/install-test-tools npm

# The client packages, generated from openapi.yaml and versioned with pyproject.toml, built into clients/dist/
# (gitignored): the Python client's wheel and sdist (openapi-python-client, the clients extra) and the npm
# package of the TypeScript types (openapi-typescript and npm, clients-tools). scripts/build-clients.
clients: $(VENV)/.clients-deps clients-tools
	$(PY) scripts/build-clients

# As root on Debian: lint the Dockerfile, build the image with podman (base image built locally, no
# registry), run it read-only and call it (scripts/container-check); CI runs it after `make test`.
container-check:
	bash scripts/container-check

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .tools
