# Two commands: `make run` serves the API, `make test` runs every test. Both install what is missing first: the
# Node.js pinned in .node-version, then the npm packages the target needs (README.md, Requirements).
SHELL := /bin/bash
TESTS = $(shell find test -name '*.test.ts' | sort)

.PHONY: run test typecheck coverage bench binary backup conformance clean runtime serve-modules all-modules

# Every recipe runs on the project's Node.js: scripts/node-runtime.sh links it as .runtime/bin/node, first on PATH, so
# node, npm (and the addon it compiles), npx, tsx, c8 and every child a test spawns are that one.
export PATH := $(CURDIR)/.runtime/bin:$(PATH)

runtime:
	@scripts/node-runtime.sh

# Serving needs the dependencies only; tests, benchmarks and the executable need the development tools too.
serve-modules: runtime
	@scripts/install-modules.sh serve

all-modules: runtime
	@scripts/install-modules.sh all

# The browser test drives Debian's Chromium (no browser download); install it when missing.
CHROMIUM := /usr/bin/chromium
# A colour emoji font, so the browser tests and the screenshots in docs/screenshots/ show emoji (not empty boxes).
EMOJI_FONT := /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

$(CHROMIUM):
	$(SUDO) apt-get update -qq
	$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium

$(EMOJI_FONT):
	$(SUDO) apt-get update -qq
	$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends fonts-noto-color-emoji

# Node 24 runs the TypeScript itself, its types stripped (README.md, Running): serving needs no tsx.
# The server's node flags are src/node-flags.ts's SERVER_NODE_FLAGS (a test holds the two the same).
SERVE := NODE_COMPILE_CACHE=$(CURDIR)/.runtime/compile-cache node --max-semi-space-size=16 src/main.ts

run: serve-modules
	$(SERVE) $(ARGS)

typecheck: all-modules
	npx tsc --noEmit -p .

# The HTTP suite, the PostgreSQL-only tests and the fuzzer run on a throwaway PostgreSQL too (scripts/with-postgres.ts starts it,
# installing Debian's postgresql when missing, and removes it afterwards): every test of test/http/ that starts a server against both backends.
HTTP_TESTS = $(shell find test/http -name '*.test.ts' | sort)
# Files of test/http/ that never start a server on the test database, so the PostgreSQL pass would only repeat the SQLite
# one: unit tests of the HTTP layer (no server, or a bare node:http one) and servers on a SQLite file or :memory: of their
# own (secrets-at-rest reads its SQLite file, descriptors spawns a server on one; metrics-workers spawns `--db :memory:`).
# A file that calls startTestServer or withServer (test/http/client.ts), directly or through a fixture, runs on both
# backends and does not belong here.
HTTP_SQLITE_ONLY = $(addprefix test/http/,$(addsuffix .test.ts,descriptors etag-from-json form-post http-error metrics-workers negotiate \
  openapi-check secrets-at-rest send sha256 sse-writer))
PG_TESTS = $(shell find test/postgres -name '*.test.ts' | sort)
C8_RUN := npx c8 --clean=false --reporter=none --include 'src/**' --exclude 'src/main.ts'
NODE_TEST := node --import tsx --test --test-concurrency=2 --test-reporter=spec

# Every test under c8 (SQLite), then the HTTP suite on PostgreSQL; one coverage report and gate (at least 90% of
# lines) over both runs; prints the totals.
test: all-modules $(CHROMIUM) $(EMOJI_FONT) typecheck
	@echo "make test: node $$(node --version) ($$(readlink -f .runtime/bin/node))"
	rm -rf coverage/tmp
	$(C8_RUN) $(NODE_TEST) $(filter-out $(PG_TESTS),$(TESTS))
	node --import tsx scripts/with-postgres.ts $(C8_RUN) $(NODE_TEST) $(filter-out $(HTTP_SQLITE_ONLY),$(HTTP_TESTS)) $(PG_TESTS) test/fault/fuzz.test.ts
	npx c8 report --check-coverage --lines 90 --reporter=text-summary --reporter=text \
	  --include 'src/**' --exclude 'src/main.ts'

# One executable file, dist/chat-server: Node.js single executable application with the addon embedded.
binary: all-modules
	node --import tsx scripts/build-binary.ts

# An online copy of the database, safe while the server runs: BACKUP is the new file (default a timestamped
# name under backups/), DB the database (default DB_PATH, else ./data/chat.db). See docs/operations.md.
BACKUP ?= backups/chat-$(shell date -u +%Y%m%dT%H%M%SZ).db
DB ?=
backup: serve-modules
	$(SERVE) backup '$(BACKUP)' $(if $(DB),--db '$(DB)')

# The conformance kit against any server (docs/conformance.md): URL its base URL; ARGS more options (--level core,
# --reporter junit --output report.xml, --invite CODE, --admin-token TOKEN, --skip-file known-failures.txt).
conformance: serve-modules
	@test -n '$(URL)' || { echo 'usage: make conformance URL=http://localhost:8080 [ARGS="--level core"]'; exit 2; }
	$(SERVE) conformance '$(URL)' $(ARGS)

bench: all-modules
	node --import tsx bench/run.ts

clean:
	rm -rf coverage .c8-output test-output dist lib
