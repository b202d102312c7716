# Two commands: `make run` (the site on the embedded default) and `make test` (every test).
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
NPM ?= npm
# Pyodide, for solo play offline (package.json), served by the site itself.
BROWSER_PACKAGES := node_modules/.installed

.PHONY: run test worker

$(VENV)/.installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --upgrade pip
	$(PY) -m pip install -r requirements.txt
	touch $@

$(BROWSER_PACKAGES): package.json package-lock.json
	$(NPM) ci --no-audit --no-fund
	touch $@

# The kernel and the policy compiled with mypyc, when this machine can (hearts_site/compiled.py);
# without a C compiler they run as source.
run: $(VENV)/.installed $(BROWSER_PACKAGES)
	-$(PY) -m hearts_site.compiled
	$(PY) manage.py migrate --noinput
	$(PY) manage.py collectstatic --noinput -v 0
	$(PY) -m hearts_site.serve -b 127.0.0.1 -p 8000 hearts_site.asgi:application

test: $(VENV)/.installed $(BROWSER_PACKAGES)
	-$(PY) -m hearts_site.compiled
	$(PY) manage.py collectstatic --noinput -v 0
	$(PY) -m pytest $(PYTEST_ARGS)

# Production: a separate Celery worker beside daphne (same environment variables); QUEUE=name
# serves another queue than the default (e.g. ANALYSIS_QUEUE's).
QUEUE ?= $(if $(CELERY_QUEUE),$(CELERY_QUEUE),celery)
worker: $(VENV)/.installed
	$(VENV)/bin/celery -A hearts_site worker --loglevel=INFO --concurrency=2 -Q $(QUEUE)
