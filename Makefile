# Two commands: `make run` serves the API, `make test` runs every test. Both install what is missing first.
SHELL := /bin/bash
NODE_MODULES := node_modules/.package-lock.json
TESTS = $(shell find test -name '*.test.ts' | sort)

.PHONY: run test typecheck coverage bench binary backup clean

# The browser test drives Debian's Chromium (no browser download); install it when missing.
CHROMIUM := /usr/bin/chromium
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

$(CHROMIUM):
	$(SUDO) apt-get update -qq
	$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium

$(NODE_MODULES): package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

run: $(NODE_MODULES)
	node --import tsx src/main.ts $(ARGS)

typecheck: $(NODE_MODULES)
	npx tsc --noEmit -p .

# The HTTP suite and the PostgreSQL-only tests run on a throwaway PostgreSQL too (scripts/with-postgres.ts starts it,
# installing Debian's postgresql when missing, and removes it afterwards): every test of test/http/ against both backends.
HTTP_TESTS = $(shell find test/http -name '*.test.ts' | sort)
PG_TESTS = $(shell find test/postgres -name '*.test.ts' | sort)
C8_RUN := npx c8 --clean=false --reporter=none --include 'src/**' --exclude 'src/main.ts'
NODE_TEST := node --import tsx --test --test-concurrency=2 --test-reporter=spec

# Every test under c8 (SQLite), then the HTTP suite on PostgreSQL; one coverage report and gate (at least 90% of
# lines) over both runs; prints the totals.
test: $(NODE_MODULES) $(CHROMIUM) typecheck
	rm -rf coverage/tmp
	$(C8_RUN) $(NODE_TEST) $(filter-out $(PG_TESTS),$(TESTS))
	node --import tsx scripts/with-postgres.ts $(C8_RUN) $(NODE_TEST) $(HTTP_TESTS) $(PG_TESTS)
	npx c8 report --check-coverage --lines 90 --reporter=text-summary --reporter=text \
	  --include 'src/**' --exclude 'src/main.ts'

# One executable file, dist/chat-server: Node.js single executable application with the addon embedded.
binary: $(NODE_MODULES)
	node --import tsx scripts/build-binary.ts

# An online copy of the database, safe while the server runs: BACKUP is the new file (default a timestamped
# name under backups/), DB the database (default DB_PATH, else ./data/chat.db). See docs/operations.md.
BACKUP ?= backups/chat-$(shell date -u +%Y%m%dT%H%M%SZ).db
DB ?=
backup: $(NODE_MODULES)
	node --import tsx src/main.ts backup '$(BACKUP)' $(if $(DB),--db '$(DB)')

bench: $(NODE_MODULES)
	node --import tsx bench/run.ts

clean:
	rm -rf coverage .c8-output test-output dist lib
