# The two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
# The suite runs in this many processes (pytest-xdist), each with its own test
# database and Redis database (tests/parallel_workers.py); a file's tests stay together.
TEST_WORKERS ?= 2

.PHONY: run test test-quick bench lint format worker install

$(VENV)/.installed: requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $@

# The Argdown command line the export tests read Argdown with (package.json, pinned in
# package-lock.json), when Node.js is here; without it those tests skip and say why.
node_modules/.package-lock.json: package-lock.json
	@if command -v npm >/dev/null 2>&1; then npm ci --no-audit --no-fund --silent; \
	else echo "npm not found: the tests that read Argdown exports with Argdown will skip"; fi

install: $(VENV)/.installed node_modules/.package-lock.json

# A development server: DEBUG on, SQLite unless DATABASE_URL, no Redis needed.
run: install
	DEBUG=$${DEBUG:-1} $(PY) manage.py load_demos
	@echo "Serving on http://$(HOST):$(PORT)/"
	DEBUG=$${DEBUG:-1} $(VENV)/bin/uvicorn config.asgi:application --lifespan off --host $(HOST) --port $(PORT)

test: install
	SECRET_KEY=$${SECRET_KEY:-insecure-test-only-key} $(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile

# Everything but the browser, fuzz and slow tests: a quick check while working.
test-quick: install
	SECRET_KEY=$${SECRET_KEY:-insecure-test-only-key} $(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile -m "not browser and not fuzz and not slow"

bench: install
	SECRET_KEY=$${SECRET_KEY:-insecure-bench-only-key} $(PY) -m benchmarks

# A Celery worker for real use: needs REDIS_URL (see README).
worker: install
	$(VENV)/bin/celery -A config worker -l info

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: install
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .
