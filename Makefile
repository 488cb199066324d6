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

# Every test under c8, with the coverage gate of at least 90% of lines; prints the totals.
test: $(NODE_MODULES) $(CHROMIUM) typecheck
	npx c8 --check-coverage --lines 90 --reporter=text-summary --reporter=text \
	  --include 'src/**' --exclude 'src/main.ts' \
	  node --import tsx --test --test-concurrency=2 --test-reporter=spec $(TESTS)

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
