# A thin layer over go and the test tools. Every target works on a fresh
# machine: `make test` installs what the tests need when it is missing.

GO      ?= go
BIN     := bin/incidentlib
CONTENT ?= content
OUT     ?= public
# The public address of your site, such as https://you.github.io/incidentlib/:
# canonical links, the sitemap, feeds and llms.txt name it. Empty means
# base_url in content/site.json.
BASE_URL ?=
# Where serve and mcp listen.
ADDR     ?= 127.0.0.1:1313
MCP_ADDR ?= 127.0.0.1:8765
# Where the changes list comes from: git (the content's commits, falling
# back to updated_at with a warning when git cannot answer) or off.
HISTORY ?= git
# Theme folders for build and serve alike; empty means the built-in theme.
# make serve TEMPLATES=templates STATIC=static previews edits to this checkout's.
TEMPLATES ?=
STATIC    ?=
THEME    = $(if $(TEMPLATES),-templates $(TEMPLATES)) $(if $(STATIC),-static $(STATIC))

.PHONY: build bundle check check-content serve mcp test test-quick test-deps test-go test-js lint bench bench-search bench-hugo bench-mcp bench-serve clean

build: $(BIN)
	$(BIN) build -content $(CONTENT) -out $(OUT) -history $(HISTORY) $(if $(BASE_URL),-base-url $(BASE_URL)) $(THEME)

$(BIN): FORCE
	$(GO) build -o $(BIN) ./cmd/incidentlib

check: $(BIN)
	$(BIN) check -content $(CONTENT)

# The offline bundle: links name index.html, so it works opened from disk.
bundle: $(BIN)
	$(BIN) build -offline -content $(CONTENT) -out dist/incidentlib-offline $(if $(BASE_URL),-base-url $(BASE_URL)) $(THEME)
	cd dist && rm -f incidentlib-offline.zip && $(GO) run ../cmd/zipdir incidentlib-offline incidentlib-offline.zip
	@echo "offline bundle: dist/incidentlib-offline/index.html and dist/incidentlib-offline.zip"

serve: $(BIN)
	$(BIN) serve -content $(CONTENT) -addr $(ADDR) $(THEME)

# The library as an MCP server over HTTP on 127.0.0.1, for trying it by hand.
mcp: $(BIN)
	$(BIN) mcp -content $(CONTENT) -http $(MCP_ADDR)

# The whole suite, as CI runs it (.ci/run). A missing browser, node or
# checker fails the tests that need it (INCIDENTLIB_REQUIRE_TOOLS=1), never
# skips them.
test: test-deps lint check-content test-go test-js

# The quick loop: everything but the browser, the external checkers and the
# large generated libraries (go test -short), in under a minute with a warm
# build cache. Temporary files go to a tmpfs when there is one with room
# (scripts/test-quick.sh says why). Passing results are cached; make
# test-quick ARGS=-count=1 runs them again.
ARGS ?=
test-quick:
	GO=$(GO) bash scripts/test-quick.sh $(ARGS)

# The shipped content must check clean: a warning (such as a missing
# translation) fails here, though it only prints in a build.
check-content:
	$(GO) run ./cmd/incidentlib check -strict -content content

test-deps:
	bash scripts/test-deps.sh

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './node_modules/*')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

# -timeout is per package, and generous for a loaded machine: each external
# checker has a deadline of its own, well under it (webtest.Tool), so a hung
# checker is named by its test, not by a dump of goroutines.
test-go:
	INCIDENTLIB_REQUIRE_TOOLS=1 $(GO) test -count=1 -timeout 75m ./...

test-js:
	node --test --test-timeout=120000 js-test/

bench:
	$(GO) run ./cmd/benchsite -runs 5 -runs-large 2

bench-search: test-deps
	$(GO) run ./cmd/benchsearch

# incidentlib beside Hugo on the same generated library; installs the pinned
# Hugo into .cache/bin with go install when it is missing.
bench-hugo:
	$(GO) run ./cmd/benchhugo

# MAX_MEMORY=1GiB runs the server with that soft memory limit (-max-memory).
MAX_MEMORY ?=
bench-mcp:
	$(GO) run ./cmd/benchmcp $(if $(MAX_MEMORY),-max-memory $(MAX_MEMORY))

# The preview: from saving a one-case edit to the open page's reload event,
# median of 20 edits, on content/ and on 10,000 generated cases.
bench-serve:
	$(GO) run ./cmd/benchserve

clean:
	rm -rf bin public dist .cache

FORCE:
