# Two commands on a fresh machine: `make run` and `make test`. Each installs what it needs,
# idempotently: a virtualenv synced from uv.lock (uv itself from PyPI, in .tools/), bun 1.4.4 from
# the npm registry (Reflex's frontend toolchain; Node 20 here is too old for Reflex's npm path)
# and, for the browser tests, Debian's chromium.

PORT ?= 8000
TEST_PORT ?= 8765
# `make test PYTEST_ARGS='tests/test_x.py -k y'` runs part of the suite on a fresh test build.
PYTEST_ARGS ?=
PYTHON ?= python3
VENV := .venv
TOOLS := .tools
BIN := $(CURDIR)/$(VENV)/bin
export PATH := $(CURDIR)/$(TOOLS)/node_modules/.bin:$(BIN):$(PATH)
export REFLEX_TELEMETRY_ENABLED := false
# No look-up of Reflex's latest version on PyPI (`reflex export` and `reflex run` make one otherwise).
export REFLEX_CHECK_LATEST_VERSION := false

.PHONY: run dev bench-dev test test-fast screen-reader-logs mutate bench bench-visitors bench-metrics build install chromium nginx prometheus fonts java documents migrate clean audit load faults lint release
# Backend worker processes of `make run`: more than one needs REFLEX_REDIS_URL (shared state, rate
# limits and booking budgets), or the start is refused (settings.refuse_unshared_workers).
WORKERS ?= 1

install: $(VENV)/.installed $(TOOLS)/node_modules/.bin/bun $(TOOLS)/node_modules/axe-core/axe.min.js \
	$(TOOLS)/node_modules/html_codesniffer/build/HTMLCS.js $(TOOLS)/node_modules/vnu-jar/build/dist/vnu.jar

# uv, pinned, in a virtualenv of its own (it is not a dependency of the site).
UV_VERSION := 0.13.9
UV := $(CURDIR)/$(TOOLS)/uv/bin/uv
$(UV):
	$(PYTHON) -m venv $(TOOLS)/uv
	$(TOOLS)/uv/bin/pip install --quiet --disable-pip-version-check uv==$(UV_VERSION)

# Exactly the lock (runtime + the `local` stand-ins + `dev`); a release installs the runtime only.
# --compile-bytecode, as a release's ./install: uv writes no .pyc by default, and where
# PYTHONDONTWRITEBYTECODE is set (as on the machines this project is built on) no process writes
# them, so every start compiled its packages' sources again: 4 of the 8 CPU seconds before make
# dev's first page on a fresh clone, and a share of every test's subprocess (docs/performance.md).
$(VENV)/.installed: pyproject.toml uv.lock .python-version $(UV)
	UV_PROJECT_ENVIRONMENT=$(VENV) UV_PYTHON_DOWNLOADS=never $(UV) sync --frozen --all-groups --quiet --compile-bytecode
	touch $@

$(TOOLS)/node_modules/.bin/bun:
	npm install --prefix $(TOOLS) --no-audit --no-fund --loglevel=error bun@1.4.4

# axe-core, injected into pages by the accessibility tests.
$(TOOLS)/node_modules/axe-core/axe.min.js:
	npm install --prefix $(TOOLS) --no-audit --no-fund --loglevel=error axe-core@4.14.1

# HTML_CodeSniffer, the second WCAG checker of tests/test_accessibility.py (injected like axe).
$(TOOLS)/node_modules/html_codesniffer/build/HTMLCS.js:
	npm install --prefix $(TOOLS) --no-audit --no-fund --loglevel=error html_codesniffer@2.5.1

# The Nu Html Checker (the W3C's validator) of tests/test_html_validity.py; it runs on Java.
$(TOOLS)/node_modules/vnu-jar/build/dist/vnu.jar:
	npm install --prefix $(TOOLS) --no-audit --no-fund --loglevel=error vnu-jar@26.9.27

java:
	@command -v java >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq default-jre-headless; }

# panva's oidc-provider (a certified OpenID Provider) for tests/test_auth_certified.py, exactly
# as tests/oidc-provider/package-lock.json says. Node 20 runs it with a warning.
OIDC_PROVIDER := tests/oidc-provider/node_modules/oidc-provider/package.json
$(OIDC_PROVIDER): tests/oidc-provider/package-lock.json
	npm ci --prefix tests/oidc-provider --no-audit --no-fund --loglevel=error
	touch $@

# Guidepup's virtual screen reader for tests/test_screen_reader.py (its browser bundle is injected
# into the pages), exactly as tests/screen-reader/package-lock.json says.
SCREEN_READER := tests/screen-reader/node_modules/@guidepup/virtual-screen-reader/package.json
$(SCREEN_READER): tests/screen-reader/package-lock.json
	npm ci --prefix tests/screen-reader --no-audit --no-fund --loglevel=error
	touch $@

# django-oauth-toolkit 3.4.1 (a widely deployed provider, not certified) for tests/test_auth_dot.py,
# in a virtualenv of its own from PyPI, exactly as tests/oidc-dot/requirements.txt pins it.
DOT_PROVIDER := tests/oidc-dot/.venv/.installed
$(DOT_PROVIDER): tests/oidc-dot/requirements.txt
	$(PYTHON) -m venv tests/oidc-dot/.venv
	tests/oidc-dot/.venv/bin/pip install --quiet --disable-pip-version-check -r tests/oidc-dot/requirements.txt
	touch $@

# django-oidc-provider 0.9.0 (the third real provider) for tests/test_auth_djop.py, the same way,
# exactly as tests/oidc-djop/requirements.txt pins it.
DJOP_PROVIDER := tests/oidc-djop/.venv/.installed
$(DJOP_PROVIDER): tests/oidc-djop/requirements.txt
	$(PYTHON) -m venv tests/oidc-djop/.venv
	tests/oidc-djop/.venv/bin/pip install --quiet --disable-pip-version-check -r tests/oidc-djop/requirements.txt
	touch $@

chromium:
	@command -v chromium >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq chromium; }

# Debian's nginx: tests/test_nginx.py runs deploy/nginx/nereo.conf in front of the site.
nginx:
	@command -v nginx >/dev/null 2>&1 || test -x /usr/sbin/nginx || { apt-get update -qq && apt-get install -y -qq nginx; }

# Debian's prometheus and its promtool: tests/test_metrics.py checks and unit-tests the alert rules
# of deploy/prometheus/, tests/test_prometheus.py scrapes the site with it.
prometheus:
	@command -v promtool >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq --no-install-recommends prometheus; }

# Liberation Sans, the font embedded in the PDF documents (scripts/make_documents.py; the tests of
# `make test-fast` render them afresh to compare them with files/).
fonts:
	@test -f /usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf || { apt-get update -qq && apt-get install -y -qq fonts-liberation; }

# The PDFs in files/ (committed build products, tagged PDF/UA-1 by Typst), from the Markdown in
# marketing_site/content/<lang>/documents/; prints each file and the seconds it took (docs/documents.md).
documents: install fonts
	$(BIN)/python scripts/make_documents.py

migrate: install
	$(BIN)/alembic upgrade head

# The production frontend: prerendered pages, hashed assets, exact-path manifest.
build: install
	SITE_URL=$${SITE_URL:-http://127.0.0.1:$(PORT)} PORT=$(PORT) $(BIN)/reflex export --frontend-only --no-zip --loglevel warning

run: migrate
	$(MAKE) --no-print-directory build PORT=$(PORT)
	@echo "Serving http://127.0.0.1:$(PORT)/"
	@# Without OIDC_ISSUER, dev_services.py starts a local identity provider and manager
	@# stand-in on $(PORT)+1 and $(PORT)+2 (never for an https SITE_URL) around the site.
	SITE_URL=$${SITE_URL:-http://127.0.0.1:$(PORT)} PORT=$(PORT) GRANIAN_WORKERS=$(WORKERS) $(BIN)/python scripts/dev_services.py -- \
		$(BIN)/reflex run --env prod --backend-only --backend-host $${HOST:-127.0.0.1} --backend-port $(PORT)

# The development loop (docs/development.md): the site at http://127.0.0.1:3000/ (Vite, with the
# backend on 8000 behind it; REFLEX_FRONTEND_PORT and REFLEX_BACKEND_PORT choose others), a saved
# word, page, component or style in the open tab about a second later. It migrates the database
# itself. TRACEBACK=1 prints a mistake's traceback, DEV_TIMINGS=1 what each update took.
dev: install
	$(BIN)/python -m marketing_site.devloop

# The test build points ANALYTICS_SCRIPT_URL at a loopback path of the test site that only the
# consent tests answer (with Playwright's request interception): any other request to it is a 404.
TEST_ANALYTICS_URL = http://127.0.0.1:$(TEST_PORT)/__test-analytics.js
# Likewise the marketing purpose's script (content/consent.py): each purpose loads its own.
TEST_MARKETING_URL = http://127.0.0.1:$(TEST_PORT)/__test-marketing.js

# The test build also carries recognisable values for every secret: tests/test_security.py
# checks that none of them reaches the frontend bundle.
BUILD_CANARIES = SMTP_PASSWORD=canary-smtp-password-7f3a OIDC_CLIENT_SECRET=canary-oidc-secret-51c9 SESSION_SECRET=canary-session-secret-e02d

# Run again on PostgreSQL and Redis (two backend workers per site) when TEST_DATABASE_URL and
# TEST_REDIS_URL are set: the route smoke test, the lead flow (API, faults, browser), the
# security headers, a state event over the websocket, the login flow (tests/test_auth*.py), the
# operators' console (tests/test_console*.py), the demo scheduler (one booking per slot across
# two workers, the whole booking in Chromium), the nginx proxy in front of two workers, a burst
# of audience beacons over two workers, a failing handler on a public page told to the visitor
# with the reference the log carries, Debian's Prometheus scraping two workers, one IPv6 /64 as
# one bucket of the Redis rate limiter, the mail outbox (each transition, every accepted value
# through the SMTP server, a site frozen mid-send while a second one takes its mail over), and two
# machines (./serve of a release) behind nginx through a rolling restart, a freeze, a kill and a
# Redis outage; two workers writing their page views at the same moments; and identifiers (an
# erased person's link, the twin booking, leads, bookings, erasures and purges in any order:
# tests/test_identity.py, about 30 s on PostgreSQL).
ENGINE_TESTS = tests/test_routes_http.py tests/test_lead_api.py tests/test_lead_faults.py \
	tests/test_outbox.py tests/test_outbox_stall.py \
	tests/test_browser_leads.py tests/test_security.py tests/test_schema.py tests/test_operations.py \
	tests/test_browser_pages.py::test_switch_event_applies_alternate_set_on_the_accented_page \
	tests/test_failure_notice.py::test_a_failing_handler_on_a_public_page_is_told_with_the_logged_reference \
	tests/test_booking_api.py tests/test_browser_booking.py tests/test_nginx.py tests/test_audience_http.py \
	tests/test_prometheus.py tests/test_metrics_site.py tests/test_client_address.py \
	tests/test_machines.py tests/test_tab_handover.py tests/test_identity.py tests/test_screen_reader.py \
	tests/test_audience_flush.py::test_two_workers_flushing_at_once_lose_no_view \
	$(filter-out $(ENGINE_EXCLUDED),$(wildcard tests/test_auth*.py)) $(wildcard tests/test_console*.py)
# The login against django-oauth-toolkit (tests/test_auth_dot.py, about 100 s at load 9: real
# logins, short tokens waited for, site restarts) and against django-oidc-provider
# (tests/test_auth_djop.py, about 51 s: two site restarts, no token lifetime waited for) runs on
# SQLite only; their engine-dependent parts (the refresh lock, the logout jti in Redis) are in the
# other auth tests.
ENGINE_EXCLUDED = tests/test_auth_dot.py tests/test_auth_djop.py
# That pass runs beside the SQLite one (each keeps about one core busy; CI has two), on its own
# port and its own build (.web-engines), its output in test-artifacts/engines.log, shown after.
# Then, in the same lane, these SQLite tests (on that build) leave the first pass, so that the
# two lanes take about as long (measured on 2026-11-27: 1,193 s and 1,362 s before the second
# lane's 264 s, of which all but the print test then moved back to the first). `make dev` in a
# copy (tests/test_dev_loop.py: a fresh clone's start, 20 s idle, edits) runs there too: it needs
# no build of its own and no database beyond its copy's SQLite; and the login against
# django-oidc-provider (.ci/run on 2026-11-28, nothing else running: 1,115 s in all, the first
# pass 1,071 s, the engines' 897 s and then 135 s).
ENGINE_TEST_PORT ?= 8865
ENGINE_WEB := $(CURDIR)/.web-engines
SECOND_LANE_TESTS = tests/test_print.py tests/test_dev_loop.py tests/test_auth_djop.py
# With the engines set, these run in that pass only, not twice: the nginx tests check the proxy's
# own configuration (their own build included), the real Prometheus scrapes a site of two workers,
# the machines' drills (two ./serve behind nginx, sharing the nginx build) need PostgreSQL; and the
# browser and protocol tests whose subject is the same on either engine (the pages, the login
# against the certified provider, the API's schema, the forms in Chromium, the console's pages, the
# client address, the security headers, a frozen worker, the screen-reader journeys: about 90 s at
# load 15, the lane with room for them), run where production runs: PostgreSQL
# and Redis. The services that talk SQL (leads, outbox, booking, sessions, retention, console
# queries) still run on both engines.
ENGINE_ONLY_TESTS = tests/test_nginx.py tests/test_prometheus.py tests/test_machines.py \
	tests/test_schema.py tests/test_auth_certified.py tests/test_auth_flow.py tests/test_auth_http.py \
	tests/test_browser_leads.py tests/test_browser_booking.py tests/test_console.py \
	tests/test_client_address.py tests/test_routes_http.py tests/test_security.py tests/test_outbox_stall.py \
	tests/test_screen_reader.py

# The SQLite lane's build comes first, the PostgreSQL/Redis lane's once it is done: both install
# npm packages through reflex.lock/, and two builds at once left it out of sync with its
# package.json (both failed, 2026-11-28); the lanes' tests still run side by side.
test: migrate chromium nginx prometheus fonts java $(OIDC_PROVIDER) $(DOT_PROVIDER) $(DJOP_PROVIDER) $(SCREEN_READER)
	@mkdir -p test-artifacts; engines=""; ignore=""; \
	$(BUILD_CANARIES) ANALYTICS_SCRIPT_URL=$(TEST_ANALYTICS_URL) MARKETING_SCRIPT_URL=$(TEST_MARKETING_URL) \
		$(MAKE) --no-print-directory build PORT=$(TEST_PORT) || exit 1; \
	if [ -n "$$TEST_DATABASE_URL" ] && [ -n "$$TEST_REDIS_URL" ]; then \
		echo "--- the PostgreSQL and Redis lane builds and runs beside this one: test-artifacts/engines.log"; \
		second="$(if $(PYTEST_ARGS),,$(SECOND_LANE_TESTS))"; \
		{ $(BUILD_CANARIES) ANALYTICS_SCRIPT_URL=http://127.0.0.1:$(ENGINE_TEST_PORT)/__test-analytics.js \
			MARKETING_SCRIPT_URL=http://127.0.0.1:$(ENGINE_TEST_PORT)/__test-marketing.js \
			REFLEX_WEB_WORKDIR=$(ENGINE_WEB) $(MAKE) --no-print-directory build PORT=$(ENGINE_TEST_PORT) || exit 1; \
		  TEST_PORT=$(ENGINE_TEST_PORT) TEST_WEB_DIR=$(ENGINE_WEB) $(BIN)/python -m pytest -p no:cacheprovider \
			$(ENGINE_TESTS); first=$$?; \
		  if [ -n "$$second" ]; then echo "--- on SQLite, in this lane: $$second"; \
			env -u TEST_DATABASE_URL -u TEST_REDIS_URL TEST_PORT=$(ENGINE_TEST_PORT) TEST_WEB_DIR=$(ENGINE_WEB) \
			$(BIN)/python -m pytest -p no:cacheprovider $$second || first=1; fi; \
		  exit $$first; } > test-artifacts/engines.log 2>&1 & engines=$$!; \
		ignore="$(if $(PYTEST_ARGS),,$(addprefix --ignore=,$(SECOND_LANE_TESTS) $(ENGINE_ONLY_TESTS)))"; \
	fi; \
	env -u TEST_DATABASE_URL -u TEST_REDIS_URL TEST_PORT=$(TEST_PORT) $(BIN)/python -m pytest $$ignore $(PYTEST_ARGS); sqlite=$$?; \
	status=0; \
	if [ -n "$$engines" ]; then \
		wait $$engines; status=$$?; \
		echo "--- again on PostgreSQL and Redis, two workers per site, then the second lane (test-artifacts/engines.log)"; \
		cat test-artifacts/engines.log; \
	fi; \
	[ $$sqlite -eq 0 ] && [ $$status -eq 0 ]


# The screen-reader journeys' logs (docs/accessibility/screen-reader/<lang>/), written again from
# what Guidepup's virtual screen reader says on a fresh test build (tests/test_screen_reader.py;
# docs/accessibility.md). On SQLite only, whatever the environment: the logs do not depend on it.
screen-reader-logs:
	env -u TEST_DATABASE_URL -u TEST_REDIS_URL SCREEN_READER_LOGS=write $(MAKE) --no-print-directory test \
		PYTEST_ARGS="tests/test_screen_reader.py"

# The tests that need no frontend build, browser or nginx (conftest.py marks the others
# `needs_build` from their fixtures), on two processes. TEST_WITHOUT_BUILD makes a test that starts
# a site, a build or nginx unmarked fail, and hides the build from it. PYTEST_ADDOPTS is honoured
# (`-n 0` there runs one process); PYTEST_ARGS picks files or tests as for `make test`.
test-fast: install fonts prometheus
	TEST_WITHOUT_BUILD=1 PYTEST_ADDOPTS="-n 2 $$PYTEST_ADDOPTS" $(BIN)/python -m pytest -m "not needs_build" $(PYTEST_ARGS)

# Mutation testing (mutmut; [tool.mutmut] in pyproject.toml lists the modules): each mutant of the
# code that guards people and data against the tests of `make test-fast` that reach it, in
# mutants/ (a copy of the tree). Prints the score of each module and the surviving mutants. Not
# in CI. `make mutate MUTANTS='marketing_site.security.*'` runs some only; MUTATE_CHILDREN
# processes at once.
MUTANTS ?=
MUTATE_CHILDREN ?= 2
mutate: install
	mkdir -p mutants && ln -sfn ../.venv mutants/.venv && ln -sfn ../.tools mutants/.tools
	TEST_WITHOUT_BUILD=1 $(BIN)/mutmut run --max-children $(MUTATE_CHILDREN) $(MUTANTS)
	$(BIN)/python scripts/mutation_report.py

# One archive under dist/ for servers: ./install (runtime group of the lock only), ./migrate and
# ./serve (the prebuilt site, WORKERS honoured), see deploy/README.md. SITE_URL is the public
# address the pages are built for: `make release SITE_URL=https://www.nereo-wealth.fr`.
release: install
	@test -n "$(SITE_URL)" || { echo "make release SITE_URL=https://… (the pages are built for it)"; exit 2; }
	$(MAKE) --no-print-directory build SITE_URL=$(SITE_URL)
	$(BIN)/python scripts/release.py --out dist

# Known vulnerabilities in the locked packages (PyPI's advisory data, through pip-audit). It fails
# when a package could not be audited, unless AUDIT_UNREACHABLE_OK=1 (then a WARNING says how many).
audit: install
	$(UV) export --frozen --all-groups --no-emit-project --no-hashes --quiet --output-file $(VENV)/audit-requirements.txt
	$(BIN)/python scripts/audit.py $(VENV)/audit-requirements.txt

# The gate before the tests: formatting and lint on the whole tree, every imported package
# declared (deptry), the lock in step with pyproject.toml, types of the layers below the pages
# (mypy, files in pyproject.toml), and models and migrations in agreement (alembic check on a
# scratch database migrated to head).
# deptry twice: the whole tree (tests/ too) without DEP004, since tests and scripts import the dev
# group, then the code a server runs with it: a dev package imported there fails. That second run
# leaves out tests/ and the scripts but those whose name starts with n: nginx_maps.py, which a
# release runs (deptry's regular expressions have no look-ahead to name it exactly).
lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/deptry . --ignore DEP004
	$(BIN)/deptry . --extend-exclude 'tests/' --extend-exclude 'scripts/[^n]'
	$(UV) lock --check --quiet
	$(BIN)/mypy
	@scratch=$$(mktemp -d) && trap 'rm -rf "$$scratch"' EXIT && \
		DATABASE_URL=sqlite:///$$scratch/check.db $(BIN)/alembic upgrade head && \
		DATABASE_URL=sqlite:///$$scratch/check.db $(BIN)/alembic check

# Not part of `make test`: bounded load and fault runs on loopback (see scripts/).
load: migrate
	$(BIN)/python scripts/load_leads.py

faults: migrate
	$(BIN)/python scripts/fault_leads.py

# Lighthouse on every route of the production build (a benchmark: it prints, never fails).
$(TOOLS)/node_modules/.bin/lighthouse:
	npm install --prefix $(TOOLS) --no-audit --no-fund --loglevel=error lighthouse@12.8.2

bench: migrate chromium $(TOOLS)/node_modules/.bin/lighthouse
	$(MAKE) --no-print-directory build PORT=$(PORT)
	PORT=$(PORT) $(BIN)/python scripts/bench_lighthouse.py

# Simultaneous visitors through nginx: anonymous, nginx alone, logged in (a benchmark: it prints).
VISITORS ?= 200 1000 2000
bench-visitors: migrate chromium nginx
	$(MAKE) --no-print-directory build PORT=$(PORT)
	$(BIN)/python scripts/bench_visitors.py --visitors $(VISITORS)

# The cost of the metrics: a scrape with N series over two workers' files, and what counting adds
# to a request (a benchmark: it prints; docs/performance.md has its figures).
bench-metrics: install
	$(BIN)/python scripts/bench_metrics.py

clean:
	rm -rf .web .web-dev .web-dev-writing .web-engines .states var test-artifacts dist

# `make dev` against a one-page Reflex app of the same Reflex, side by side: cold starts (fresh
# clone, web directory there) and save → visible for YAML, Markdown, Python, style and a new page
# in Chromium (a benchmark: it prints; docs/performance.md has its figures). EDITS per kind.
EDITS ?= 10
bench-dev: install chromium
	$(BIN)/python scripts/bench_dev.py --edits $(EDITS)
