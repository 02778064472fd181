# Image to build and deploy: make docker-build deploy IMG=registry.example.com/transfer-intent-service:v0.1.0
IMG ?= transfer-intent-service:latest

# The release, in one place: the VERSION file, or make VERSION=x.y.z. The chart's version and
# appVersion (make chart), the image tag (make release-local) and what manager --version and the
# tis_build_info metric report (make build, make release-local, the Dockerfile) all come from it.
VERSION ?= $(shell cat $(CURDIR)/VERSION)
COMMIT ?= $(shell git -C $(CURDIR) rev-parse HEAD 2>/dev/null || echo unknown)
VERSION_LDFLAGS = -X github.com/transferintent/transfer-intent-service/internal/version.version=$(VERSION) \
	-X github.com/transferintent/transfer-intent-service/internal/version.commit=$(COMMIT)

# The container tool of docker-build and docker-push (docker or podman).
CONTAINER_TOOL ?= docker

# Versions of the local control plane that envtest, `make test` and `make run` use.
# hack/control-plane.sh puts it into bin/k8s/, once (later calls only print the directory), by one
# of two routes, and says which and why: first the kubebuilder way, setup-envtest (installed from
# the Go module proxy into bin/) downloading the envtest archive of ENVTEST_K8S_VERSION listed in
# the index ENVTEST_INDEX_URL; else, when that index cannot be fetched within ENVTEST_INDEX_TIMEOUT
# seconds or the download fails, a build from Go modules (the route of a machine that reaches only
# the module proxy). ENVTEST_INDEX_URL= skips the download. Kubernetes' minor follows the service's
# k8s.io modules (go.mod), setup-envtest's controller-runtime's; etcd (of the build route) is the
# one that Kubernetes release requires, so that the builds share their compiled packages.
ENVTEST_K8S_VERSION ?= 1.37.2
ETCD_VERSION ?= 3.7.0
SETUP_ENVTEST_VERSION ?= v0.25.1
ENVTEST_INDEX_URL ?= https://raw.githubusercontent.com/kubernetes-sigs/controller-tools/HEAD/envtest-releases.yaml
ENVTEST_INDEX_TIMEOUT ?= 5

# Extra flags for the manager in `make run`, for example RUN_ARGS="--zap-log-level=debug", and for
# hack/localcluster itself, for example LOCALCLUSTER_ARGS="--api-bind-address 127.0.0.1:9080", or
# "--postgres-port 0" for no local PostgreSQL (the manager then runs without the archive). It takes
# PostgreSQL's programs from $POSTGRES_BINDIR, else from hack/postgres.sh (which may install them).
RUN_ARGS ?=
# Flags for hack/bench in `make bench`, for example BENCH_ARGS="-duration 10s -concurrency 64".
BENCH_ARGS ?=
# Flags for hack/benchscale in `make bench-scale`, for example BENCH_SCALE_ARGS="-n 5000 -create-duration 10s",
# or "-before /tmp/manager-old" to measure an older build in the same run.
BENCH_SCALE_ARGS ?=
LOCALCLUSTER_ARGS ?=

# Every recipe runs in bash, stops at the first failing command, and a pipeline fails when any
# part of it fails.
SHELL = /usr/bin/env bash -o pipefail
.SHELLFLAGS = -ec

# Tools. controller-gen and oapi-codegen are pinned as `tool`s in go.mod, so they need no separate
# install; kustomize is the one built into kubectl.
GO ?= go
KUBECTL ?= kubectl
CONTROLLER_GEN ?= $(GO) tool controller-gen
OAPI_CODEGEN ?= $(GO) tool oapi-codegen
KUSTOMIZE ?= $(KUBECTL) kustomize
LOCALBIN ?= $(CURDIR)/bin
CONTROL_PLANE = KUBE_VERSION=$(ENVTEST_K8S_VERSION) ETCD_VERSION=$(ETCD_VERSION) \
	SETUP_ENVTEST_VERSION=$(SETUP_ENVTEST_VERSION) ENVTEST_INDEX_URL="$(ENVTEST_INDEX_URL)" \
	ENVTEST_INDEX_TIMEOUT=$(ENVTEST_INDEX_TIMEOUT) LOCALBIN=$(LOCALBIN) $(CURDIR)/hack/control-plane.sh

# Flags of every `go test` run by `make test`, and of the manager the end-to-end suite builds: the
# race detector is on, so concurrent code is checked by every test that exercises it. Roughly doubles
# the time of the Go tests (figures in the README's Tests section); GO_TEST_FLAGS= turns it off locally.
GO_TEST_FLAGS ?= -race

# Every package but the end-to-end suite, the slow part of the fault suite (test/faults/long), the
# archive's scale benchmark (test/archivebench), the chart's install test (test/chart, run by make
# test-chart with the pinned helm) and the release test (test/release), which have their own targets.
UNIT_PACKAGES = $$($(GO) list ./... | grep -v -e /test/e2e -e /test/faults/long -e /test/archivebench -e /test/chart -e /test/release)

# The release test (test/release): make release-local into a loopback registry, then helm install
# from it. Its own run: cold, it cross-compiles the manager for two platforms, which takes longer
# than go test's default 10 minutes on two cores; -count=1, as what it tests (the Makefile,
# hack/image, hack/registry.sh) is outside what go test's cache sees.
RELEASE_TEST = $(GO) test $(GO_TEST_FLAGS) ./test/release/ -count=1 -timeout 60m

# The end-to-end suite: builds the manager from ./cmd itself, starts its own control plane, applies
# config/samples and waits for the controllers to mark them Ready.
E2E_TEST = E2E_GO_BUILD_FLAGS="$(GO_TEST_FLAGS)" $(GO) test $(GO_TEST_FLAGS) ./test/e2e/ -v -ginkgo.v -timeout 20m

# What the unit packages' tests need besides the control plane: a browser, Redis and PostgreSQL's
# programs, the npm webhook verifier and the npm wallet libraries (each script installs what is
# missing, once).
WITH_TEST_SERVICES = export CHROMIUM_PATH="$$(hack/chromium.sh)"; export REDIS_SERVER="$$(hack/redis.sh)"; \
	export POSTGRES_BINDIR="$$(hack/postgres.sh)"; export WEBHOOKVERIFY_DIR="$$(hack/webhookverify.sh)"; \
	export WALLETSIGN_DIR="$$(hack/walletsign.sh)";

# Builds the control plane if needed and exports KUBEBUILDER_ASSETS for the rest of the recipe line.
# A plain assignment, so that a failed build stops the recipe instead of running tests without it.
WITH_ASSETS = assets="$$($(CONTROL_PLANE))"; export KUBEBUILDER_ASSETS="$$assets";

.PHONY: all
all: build

##@ General

# `make help` lists every target that has a `## description` after its name, grouped under the
# `##@ Section` lines above them.
.PHONY: help
help: ## Show this help.
	@awk 'BEGIN { FS = ":.*##"; printf "\nUsage:\n  make \033[36m<target>\033[0m\n" } \
		/^##@/ { printf "\n\033[1m%s\033[0m\n", substr($$0, 5); next } \
		/^[a-zA-Z0-9_-]+:.*##/ { printf "  \033[36m%-18s\033[0m %s\n", $$1, $$2 }' $(MAKEFILE_LIST)

##@ Development

.PHONY: manifests
manifests: ## Generate the CRDs (config/crd/bases) and the manager's ClusterRole (config/rbac/role.yaml).
	$(CONTROLLER_GEN) rbac:roleName=manager-role crd webhook paths="./..." output:crd:artifacts:config=config/crd/bases

.PHONY: generate
generate: ## Generate the DeepCopy methods of the API types and the /v2 client (pkg/client) from the OpenAPI document.
	$(CONTROLLER_GEN) object:headerFile="hack/boilerplate.go.txt" paths="./..."
	$(OAPI_CODEGEN) -config pkg/client/oapi-codegen.yaml api/openapi/openapi.yaml

# crd-ref-docs is pinned in the tools module hack/tools and built into bin/ once, like
# golangci-lint, rather than a `tool` of go.mod like controller-gen: in go.mod it would add ten
# modules and raise github.com/goccy/go-yaml (required by ginkgo) from v1.18.0 to v1.19.2 in the
# service's module graph, while in hack/tools the service's go.mod and go.sum stay as they are.
# A change of the pin rebuilds it.
CRD_REF_DOCS = $(LOCALBIN)/crd-ref-docs
CRD_REF_DOCS_RUN = $(CRD_REF_DOCS) --log-level=WARN --source-path=./api/v1alpha1 \
	--config=hack/crd-ref-docs/config.yaml --renderer=markdown

# One page per API group with a section per kind (crd-ref-docs writes a file per group at most),
# and docs/reference/README.md indexing the kinds; the templates are in hack/crd-ref-docs. Kept
# out of manifests and generate, which do not need it; verify runs it.
.PHONY: docs
docs: $(CRD_REF_DOCS) ## Generate the API reference in docs/reference from api/v1alpha1.
	@mkdir -p docs/reference
	@rm -f docs/reference/*.md
	$(CRD_REF_DOCS_RUN) --templates-dir=hack/crd-ref-docs/page --output-mode=group --output-path=docs/reference
	$(CRD_REF_DOCS_RUN) --templates-dir=hack/crd-ref-docs/index --output-mode=single --output-path=docs/reference/README.md

$(CRD_REF_DOCS): hack/tools/go.mod hack/tools/go.sum
	@mkdir -p $(LOCALBIN)
	cd hack/tools && GOWORK=off $(GO) build -o $(CRD_REF_DOCS) github.com/elastic/crd-ref-docs

# The Helm chart dist/chart is generated from config/ by hack/chart (kubectl kustomize of
# config/default, then typed edits on the parsed objects), and committed; verify regenerates it,
# so a change of config/ without make chart fails CI.
.PHONY: chart
chart: manifests ## Generate the Helm chart dist/chart from config/ (committed; make verify checks it).
	KUSTOMIZE="$(KUSTOMIZE)" $(GO) run ./hack/chart -config config -out dist/chart -version $(VERSION)

.PHONY: fmt
fmt: ## Run go fmt against the code.
	$(GO) fmt ./...

.PHONY: vet
vet: ## Run go vet against the code.
	$(GO) vet ./...

# Fuzz targets of the request parsers and of the whole HTTP handler (test/faults), each run
# briefly by `make test` (go test runs one -fuzz target per invocation). Bounded by iterations, not
# time: a short timed run can fail with "context deadline exceeded" on a loaded machine. An entry
# may end in its own iteration count for that brief run (the handler target serves a whole HTTP
# request each time); FUZZTIME given to make applies to every target: make fuzz FUZZTIME=10m.
FUZZ_TARGETS = internal/intent:FuzzParseAmount internal/caip:FuzzParseAccountID internal/intent:FuzzAssetJSON \
	test/faults:FuzzHandler:10000x
FUZZTIME ?= 50000x

# golangci-lint is pinned in the tools module hack/tools (its dependencies stay out of go.mod) and
# built into bin/ once; a change of the pin rebuilds it.
GOLANGCI_LINT = $(LOCALBIN)/golangci-lint

.PHONY: lint
lint: $(GOLANGCI_LINT) ## Run golangci-lint with .golangci.yml over the whole module, hack/promql and hack/image.
	$(GOLANGCI_LINT) run ./...
	cd hack/promql && GOWORK=off $(GOLANGCI_LINT) run --config ../../.golangci.yml ./...
	cd hack/image && GOWORK=off $(GOLANGCI_LINT) run --config ../../.golangci.yml ./...

$(GOLANGCI_LINT): hack/tools/go.mod hack/tools/go.sum
	@mkdir -p $(LOCALBIN)
	cd hack/tools && GOWORK=off $(GO) build -o $(GOLANGCI_LINT) github.com/golangci/golangci-lint/v2/cmd/golangci-lint

# helm and kubeconform check the chart. They are not in the tools module hack/tools: helm
# v3.22.0 requires k8s.io/apimachinery v0.37 and more of the k8s.io and golang.org/x modules, and in
# hack/tools's single module graph that would raise the versions crd-ref-docs (apimachinery v0.35)
# and golangci-lint are built with. hack/gotool.sh builds each with `go install module@version`,
# against its own go.mod, into bin/NAME-VERSION once (about 3 minutes for both, cold); a change of
# the pin builds the new version beside the old.
HELM_VERSION ?= v3.22.0
KUBECONFORM_VERSION ?= v0.8.0
HELM = $(LOCALBIN)/helm-$(HELM_VERSION)
KUBECONFORM = $(LOCALBIN)/kubeconform-$(KUBECONFORM_VERSION)

$(HELM):
	LOCALBIN=$(LOCALBIN) hack/gotool.sh helm.sh/helm/v3/cmd/helm $(HELM_VERSION) >/dev/null

# The path of the pinned helm, built if needed: test/release runs it.
.PHONY: print-helm
print-helm: $(HELM)
	@echo $(HELM)

$(KUBECONFORM):
	LOCALBIN=$(LOCALBIN) hack/gotool.sh github.com/yannh/kubeconform/cmd/kubeconform $(KUBECONFORM_VERSION) >/dev/null

# kubeconform's schemas, made offline by hack/chart (see hack/chart/schemas.go): the built-in kinds
# from the OpenAPI of the local kube-apiserver (bin/k8s), once per Kubernetes version into
# bin/kubeconform-schemas (a few seconds); the CRDs from config/crd/bases on every run; the
# Prometheus Operator's ServiceMonitor from the schema vendored in hack/chart/schemas, its
# PrometheusRule from the stand-in CRD of the end-to-end tests (which checks the fields we set).
KUBECONFORM_SCHEMAS = $(LOCALBIN)/kubeconform-schemas/k8s-$(ENVTEST_K8S_VERSION)
SCHEMA_PATH = {{.Group}}/{{.ResourceAPIVersion}}/{{.ResourceKind}}.json
CHART_VALUES = hack/chart/testdata/external-values.yaml hack/chart/testdata/every-value.yaml

.PHONY: test-chart
test-chart: $(HELM) $(KUBECONFORM) ## Lint dist/chart, check what it renders (default values and each of $(CHART_VALUES)) with kubeconform -strict, and install, upgrade and uninstall it on a local API server (test/chart).
	@if [ ! -f $(KUBECONFORM_SCHEMAS)/.complete ]; then \
		echo "==> kubeconform schemas of Kubernetes $(ENVTEST_K8S_VERSION) from the local kube-apiserver"; \
		$(WITH_ASSETS) rm -rf $(KUBECONFORM_SCHEMAS); $(GO) run ./hack/chart -schemas $(KUBECONFORM_SCHEMAS) -core; \
	fi
	@tmp="$$(mktemp -d)"; trap 'rm -rf "$$tmp"' EXIT; \
	$(GO) run ./hack/chart -schemas "$$tmp" -crds 'config/crd/bases/*.yaml'; \
	$(GO) run ./hack/chart -schemas "$$tmp" -crds test/e2e/testdata/prometheusrule-crd.yaml; \
	for values in "" $(addprefix --values=,$(CHART_VALUES)); do \
		echo "==> helm lint and helm template dist/chart $${values:-(default values)} | kubeconform -strict"; \
		$(HELM) lint --strict --kube-version $(ENVTEST_K8S_VERSION) dist/chart $$values; \
		$(HELM) template transfer-intent dist/chart --kube-version $(ENVTEST_K8S_VERSION) \
			--namespace transfer-intent-system $$values | \
		$(KUBECONFORM) -strict -summary -schema-location '$(KUBECONFORM_SCHEMAS)/$(SCHEMA_PATH)' \
			-schema-location "$$tmp/$(SCHEMA_PATH)" -schema-location 'hack/chart/schemas/$(SCHEMA_PATH)'; \
	done
	@echo "==> helm install, upgrade and uninstall on a local API server (test/chart)"
	@$(WITH_ASSETS) HELM="$(HELM)" $(GO) test ./test/chart/ -count=1 -timeout 5m

.PHONY: test
test: manifests generate fmt vet lint ## Run all tests: the chart, unit, envtest, browser, the release, brief fuzzing, dashboard and alerts, and end-to-end (the first run downloads the control plane, or builds it).
	@$(MAKE) --no-print-directory test-chart
	@$(WITH_ASSETS) $(WITH_TEST_SERVICES) echo "KUBEBUILDER_ASSETS=$$assets"; \
	echo "==> unit, envtest and browser tests"; \
	$(GO) test $(GO_TEST_FLAGS) $(UNIT_PACKAGES) -coverprofile cover.out -timeout 20m; \
	echo "==> the release: make release-local into a loopback registry, helm install from it"; \
	$(RELEASE_TEST); \
	echo "==> fuzzing the parsers ($(FUZZTIME) each)"; \
	$(MAKE) --no-print-directory fuzz; \
	echo "==> the dashboard's and alerts' metrics, and the alerts' unit tests"; \
	$(MAKE) --no-print-directory test-dashboard test-alerts; \
	echo "==> end-to-end tests"; \
	$(E2E_TEST)

# make flake-hunt: the unit packages FLAKE_ROUNDS times under FLAKE_LOAD busy loops (one core each),
# then the tests that failed, with the rounds they failed in. Each round's output is kept in
# test/artifacts/flake-hunt/. Not part of `make test`: three rounds take about half an hour.
FLAKE_ROUNDS ?= 3
FLAKE_LOAD ?= 2
FLAKE_PACKAGES ?= $(UNIT_PACKAGES)

.PHONY: flake-hunt
flake-hunt: ## Run the unit packages FLAKE_ROUNDS (3) times under FLAKE_LOAD (2) busy loops and list every test that failed, with its rounds.
	@$(WITH_ASSETS) $(WITH_TEST_SERVICES) \
	$(GO) run ./hack/flakehunt -rounds $(FLAKE_ROUNDS) -load $(FLAKE_LOAD) -- $(GO_TEST_FLAGS) $(FLAKE_PACKAGES)

.PHONY: test-release
test-release: ## Run only the release test: make release-local into a loopback registry, helm install of the chart from it into the local API server.
	@$(WITH_ASSETS) $(RELEASE_TEST)

.PHONY: fuzz
fuzz: ## Fuzz the request parsers (internal/intent, internal/caip) and the HTTP handler (test/faults) for FUZZTIME each.
	@for entry in $(FUZZ_TARGETS); do \
		target=$${entry#*:}; fuzztime=$(FUZZTIME); \
		case "$$target" in *:*) [ "$(origin FUZZTIME)" != file ] || fuzztime=$${target#*:}; target=$${target%%:*};; esac; \
		$(GO) test ./$${entry%%:*}/ -run='^$$' -fuzz="^$$target$$" -fuzztime=$$fuzztime; \
	done

# The Grafana dashboard (config/grafana) and the alert rules (config/prometheus/alerts.yaml) name
# only metrics the manager registers: TestDumpMetrics (internal/service) assembles the service
# on controller-runtime's registry as cmd/ does and writes every registered metric to
# METRICS_INVENTORY, and hack/promql parses each query with the Prometheus parser and fails on any
# other name. hack/promql is a module of its own, built into bin/ once, so that the Prometheus
# module stays out of the service's go.mod (docs/decisions.md); a change of its source tests and
# rebuilds it.
# Series served by others (Prometheus's up, cAdvisor, kube-state-metrics) are named in an explicit
# allow-list, and every query of the dashboard's panels must select its cluster variable.
PROMQL_CHECK = $(LOCALBIN)/promql-check
METRICS_INVENTORY = $(LOCALBIN)/metrics-inventory.txt
EXTERNAL_METRICS = hack/promql/external-metrics.txt
DASHBOARD = config/grafana/transfer-intent-service.json
ALERTS = config/prometheus/alerts.yaml
ALERTS_TESTS = config/prometheus/alerts_test.yaml

# promtool runs the alerts' unit tests (config/prometheus/alerts_test.yaml). Prometheus's Go module
# v0.316.0 is Prometheus v3.16.0; it is installed once into a directory of its version (several
# minutes cold on two cores), and a change of PROMTOOL_VERSION installs the new one beside it.
PROMTOOL_VERSION ?= v0.316.0
PROMTOOL = $(LOCALBIN)/promtool-$(PROMTOOL_VERSION)/promtool

$(PROMQL_CHECK): hack/promql/go.mod hack/promql/go.sum hack/promql/main.go hack/promql/main_test.go
	@mkdir -p $(LOCALBIN)
	cd hack/promql && GOWORK=off $(GO) test . && GOWORK=off $(GO) build -o $(PROMQL_CHECK) .

$(PROMTOOL):
	GOBIN=$(dir $(PROMTOOL)) GOWORK=off $(GO) install github.com/prometheus/prometheus/cmd/promtool@$(PROMTOOL_VERSION)

.PHONY: metrics-inventory
metrics-inventory: ## Write bin/metrics-inventory.txt: every metric the manager registers, with its type.
	@mkdir -p $(LOCALBIN)
	$(GO) test ./internal/service/ -run '^TestDumpMetrics$$' -count=1 -args -metrics-out $(METRICS_INVENTORY)

.PHONY: test-dashboard
test-dashboard: $(PROMQL_CHECK) metrics-inventory ## Check that every query of the Grafana dashboard parses, names only registered (or allowed external) metrics and selects the cluster variable.
	$(PROMQL_CHECK) check -metrics $(METRICS_INVENTORY) -external $(EXTERNAL_METRICS) -require-label cluster -dashboard $(DASHBOARD)

# promtool reads plain rule files: hack/promql writes the PrometheusRule's spec as one, next to a
# copy of the tests (whose rule_files name it), in a temporary directory.
.PHONY: test-alerts
test-alerts: $(PROMQL_CHECK) $(PROMTOOL) metrics-inventory ## Check the alert rules' metrics and that each alert has a firing and a quiet test case, then run the tests with promtool.
	$(PROMQL_CHECK) check -metrics $(METRICS_INVENTORY) -external $(EXTERNAL_METRICS) -rules $(ALERTS) -tests $(ALERTS_TESTS)
	@tmp="$$(mktemp -d)"; trap 'rm -rf "$$tmp"' EXIT; \
	$(PROMQL_CHECK) rules $(ALERTS) > "$$tmp/alerts.rules.yaml"; \
	cp $(ALERTS_TESTS) "$$tmp/"; \
	$(PROMTOOL) check rules "$$tmp/alerts.rules.yaml"; \
	$(PROMTOOL) test rules "$$tmp/alerts_test.yaml"

.PHONY: test-e2e
test-e2e: manifests generate fmt vet ## Run only the end-to-end tests (local control plane + the manager binary + config/samples).
	@$(WITH_ASSETS) echo "KUBEBUILDER_ASSETS=$$assets"; \
	export POSTGRES_BINDIR="$$(hack/postgres.sh)"; \
	$(E2E_TEST)

# The fault suite: test/faults (the Kubernetes API server stalled under the real manager binary
# while creates run, and the handler fuzz target's seeds; also part of make test) and
# test/faults/long (the API server killed and started again, kill -9 of the manager during 500
# concurrent creates). Its figures (time to 503, recovery, lost and duplicated intents) are printed
# at the end and kept in test/artifacts/faults-figures.txt, the processes' logs in
# test/artifacts/faults-*.log. Longer fuzzing of the handler: make fuzz FUZZTIME=10m.
FAULTS_TEST = $(GO) test $(GO_TEST_FLAGS) ./test/faults/... -count=1 -timeout 20m

.PHONY: test-faults
test-faults: manifests generate fmt vet ## Run the fault suite: API server stalled and killed, kill -9 of the manager during 500 creates; prints the figures.
	@$(WITH_ASSETS) echo "KUBEBUILDER_ASSETS=$$assets"; rm -f test/artifacts/faults-figures.txt; \
	$(FAULTS_TEST); \
	echo "==> fault suite figures (test/artifacts/faults-figures.txt)"; cat test/artifacts/faults-figures.txt

.PHONY: bench
bench: ## Run the Go benchmarks, then the loopback load test of GET /v2/tokens against a bare handler.
	@$(WITH_ASSETS) export REDIS_SERVER="$$(hack/redis.sh)"; $(GO) test -run='^$$' -bench=. -benchmem $(UNIT_PACKAGES)
	@echo "==> loopback load: the full /v2 stack against a bare net/http handler serving the same bytes"
	$(GO) run ./hack/bench $(BENCH_ARGS)

.PHONY: bench-binary
bench-binary: build ## Load the built manager (as it ships: access log on) with wrk next to a bare net/http server serving the same bytes; prints both and the ratio.
	@$(WITH_ASSETS) $(GO) run ./hack/benchbinary -manager $(LOCALBIN)/manager -wrk "$$(hack/wrk.sh)" $(BENCH_BINARY_ARGS)

.PHONY: bench-run
bench-run: ## With make run serving (in another terminal): the same load as bench-binary against make run's API (127.0.0.1:8080), keys created and deleted in its cluster, next to a bare server; prints both and the ratio.
	@$(GO) run ./hack/benchbinary -api http://127.0.0.1:8080 -api-kubeconfig .local/kubeconfig -wrk "$$(hack/wrk.sh)" $(BENCH_BINARY_ARGS)

.PHONY: bench-scale
bench-scale: build ## Scale harness (not in `make test`): N intents (default 100,000) in a local control plane, bin/manager started over them; memory, start-up, reads, creates.
	@$(WITH_ASSETS) $(GO) run ./hack/benchscale -manager $(LOCALBIN)/manager $(BENCH_SCALE_ARGS)

# The archive at scale: a real PostgreSQL seeded with ARCHIVE_BENCH_ROWS (1,000,000) intents by
# COPY, then p50/p99 of the pages and gets /v2 reads from it, against a bare round trip.
.PHONY: bench-archive
bench-archive: ## Seed the archive with 1,000,000 intents (COPY) and print p50/p99 of its reads against a bare round trip (not in make test; a few minutes).
	@export POSTGRES_BINDIR="$$(hack/postgres.sh)"; $(GO) test ./test/archivebench/ -run '^$$' -bench ArchiveReads -benchtime 1x -timeout 60m

# The archiver's drain against the create rate (issue 46, item 4), one API server and one PostgreSQL.
.PHONY: bench-drain
bench-drain: ## Print the archiver's drain rate against the raw create rate of the same run, and the ratio (target >= 2x; ARCHIVER_DRAIN_N intents, default 3000; about a minute).
	@$(WITH_ASSETS) export POSTGRES_BINDIR="$$(hack/postgres.sh)"; $(GO) test ./internal/archiver -run '^$$' -bench Drain -benchtime 1x -timeout 10m

# The chains' views (issue 37): calls per simulation, p50 and throughput of live simulations with
# and without the view, against one dev chain node on loopback, in one run.
.PHONY: bench-chainview
bench-chainview: ## Print calls/simulation, p50 and simulations/s of transfer, swap and bridge simulations on a dev chain node, with the chain view and without (about two minutes).
	$(GO) test ./internal/chain/chaindata -run '^$$' -bench ChainView -benchtime 1x -timeout 10m

# The market on the firm quote (issue 44): POST /v2/transfers/simulate through the API on loopback
# with no filler (the baseline), five reference fillers one of them stalled past the deadline, five
# fast ones; and the improvement over the floor of the two-filler demo's winning quotes.
.PHONY: bench-market
bench-market: ## Print p50/p99 of a firm quote with no filler and with five (one stalled past the 500 ms deadline), and the two-filler demo's improvement over the floor in bps (about a minute).
	$(GO) test ./internal/service -run '^$$' -bench FirmQuoteMarket -benchtime 1x -timeout 10m

.PHONY: verify
verify: manifests generate fmt docs chart ## Regenerate code, manifests, the API reference and the Helm chart and fail if that changed any file (run by CI).
	@$(GO) mod tidy -diff >/dev/null 2>&1 || { \
		echo "go.mod/go.sum are not tidy; run 'go mod tidy' and commit the result:"; \
		$(GO) mod tidy -diff || true; \
		exit 1; \
	}
	@if [ -n "$$(git status --porcelain)" ]; then \
		echo "The working tree differs after 'make manifests generate fmt docs chart'. Regenerate and commit:"; \
		git status --porcelain; \
		git --no-pager diff; \
		exit 1; \
	fi
	@echo "verify: generated code, manifests, API reference and Helm chart are up to date"

.PHONY: contracts
contracts: ## Compile contracts/src with the pinned solc-js and regenerate the Go bindings (internal/chain/contracts), then make run's settlement address in the samples.
	hack/contracts.sh
	$(GO) run ./hack/samplesaddress

.PHONY: samples-address
samples-address: ## Write make run's settlement contract address (its CREATE2 address, which moves with contracts/src/Settlement.sol) into config/samples, the README, the filler's usage and the runbook.
	$(GO) run ./hack/samplesaddress

.PHONY: mutate-contract
mutate-contract: ## Mutation test of contracts/src/Settlement.sol: every guard removed in turn (generated from the source), recompiled, the contract tests run; fails if one survives.
	hack/contracts.sh >/dev/null
	go run ./hack/mutate -j 2

.PHONY: envtest-assets
envtest-assets: ## Download (setup-envtest) or else build the local control plane (kube-apiserver, etcd) if needed and print its directory (KUBEBUILDER_ASSETS).
	@$(CONTROL_PLANE)

##@ Build

.PHONY: build
build: manifests generate fmt vet manager-binary ## Regenerate, format and vet, then build the manager binary, bin/manager.

# make run builds only what serving needs, two jobs at once (make -j2): the manager and the local
# cluster's launcher in one go build, and the control plane (downloaded, or built from modules).
# It neither regenerates nor vets: the generated code and manifests are committed and checked by
# make verify, go vet and lint run in make test and CI, and on a fresh machine they would double
# the wait before the first request (docs/decisions.md).
# After editing api/, run make manifests generate (or make build) before make run.
.PHONY: run
run: ## Run the service locally: control plane + CRDs + config/samples + local chains + PostgreSQL (the archive, 127.0.0.1:5433) + bin/manager (API on 127.0.0.1:8080); data kept in .local/. Ctrl-C stops all.
	@$(MAKE) --no-print-directory -j2 run-binaries control-plane
	@$(WITH_ASSETS) exec $(LOCALBIN)/localcluster --manager $(LOCALBIN)/manager $(LOCALCLUSTER_ARGS) -- $(RUN_ARGS)

.PHONY: run-control-plane
run-control-plane: ## Run only the local control plane with CRDs, samples, local chains and PostgreSQL (data in .local/), to start the manager yourself (e.g. in a debugger).
	@$(MAKE) --no-print-directory -j2 localcluster-binary control-plane
	@$(WITH_ASSETS) exec $(LOCALBIN)/localcluster --no-operator $(LOCALCLUSTER_ARGS)

# The builds of make run. The manager is built as it ships (static: CGO_ENABLED=0, -trimpath, like
# the image), and so is the launcher: with the flags hack/control-plane.sh builds kube-apiserver
# with, the packages they share at one version (client-go, apimachinery, gRPC, OpenTelemetry, ...)
# are compiled once on a fresh machine (control-plane.sh aligns its versions with go.mod).
# run-binaries builds the two in one go build, so that their shared packages are compiled once and
# the go command schedules all their packages over every core; two builds at once compiled
# client-go and apimachinery twice, each on half the cores. go build -o DIR/ names a binary after
# its package's directory, so ./cmd comes out as cmd and is renamed; -X of VERSION_LDFLAGS only
# touches the link, and the launcher has none of those symbols.
STATIC_BUILD = CGO_ENABLED=0 $(GO) build -trimpath
.PHONY: manager-binary localcluster-binary run-binaries control-plane
manager-binary:
	@mkdir -p $(LOCALBIN)
	$(STATIC_BUILD) -ldflags "$(VERSION_LDFLAGS)" -o $(LOCALBIN)/manager ./cmd
localcluster-binary:
	@mkdir -p $(LOCALBIN)
	$(STATIC_BUILD) -o $(LOCALBIN)/localcluster ./hack/localcluster
run-binaries:
	@mkdir -p $(LOCALBIN)
	@out="$$(mktemp -d $(LOCALBIN)/.run-binaries.XXXXXX)"; trap 'rm -rf "$$out"' EXIT; \
	echo "$(STATIC_BUILD) -ldflags \"$(VERSION_LDFLAGS)\" -o $$out/ ./cmd ./hack/localcluster"; \
	$(STATIC_BUILD) -ldflags "$(VERSION_LDFLAGS)" -o $$out/ ./cmd ./hack/localcluster; \
	mv -f $$out/cmd $(LOCALBIN)/manager; mv -f $$out/localcluster $(LOCALBIN)/localcluster
control-plane:
	@$(CONTROL_PLANE) >/dev/null

.PHONY: run-reset
run-reset: ## Wipe what make run keeps in .local/ (every object, the local chains and their keys, the archive's PostgreSQL); refused while make run runs.
	@$(MAKE) --no-print-directory localcluster-binary
	@$(LOCALBIN)/localcluster --reset $(LOCALCLUSTER_ARGS)

# Needs a Docker (or podman, CONTAINER_TOOL=podman) engine; there is none on the development VM.
.PHONY: docker-build
docker-build: ## Build the container image IMG (needs a Docker engine).
	$(CONTAINER_TOOL) build --build-arg VERSION=$(VERSION) --build-arg COMMIT=$(COMMIT) -t $(IMG) .

.PHONY: docker-push
docker-push: ## Push the container image IMG.
	$(CONTAINER_TOOL) push $(IMG)

.PHONY: build-installer
build-installer: manifests generate ## Write dist/install.yaml: CRDs, RBAC and the Deployment with image IMG, in one file.
	@mkdir -p dist
	KUSTOMIZE="$(KUSTOMIZE)" hack/render-deploy.sh "$(IMG)" > dist/install.yaml
	@echo "wrote dist/install.yaml"

##@ Release

# make release-local VERSION=x.y.z: the manager cross-compiled (static, CGO_ENABLED=0) for each of
# RELEASE_PLATFORMS with a CycloneDX SBOM of each binary (cyclonedx-gomod bin: the modules linked
# in, read from the binary; GOPROXY=off, as licences are read from the module cache and the
# service's own module is on no proxy), its image built by hack/image without a container engine
# (one layer on an empty base) and pushed as an OCI index to REGISTRY/transfer-intent-service:VERSION,
# and the chart generated with that version and
# image digest, packaged and pushed to oci://REGISTRY/charts. Outputs in RELEASE_DIR.
# REGISTRY defaults to the loopback registry of make registry-start; a registry on 127.0.0.1 or
# localhost is spoken to over plain HTTP (HELM_REGISTRY_FLAGS=--plain-http), others over HTTPS
# with the credentials of docker login / helm registry login (HELM_REGISTRY_FLAGS=).
REGISTRY_DIR ?= $(CURDIR)/.local/registry
REGISTRY ?= $(shell cat $(REGISTRY_DIR)/address 2>/dev/null)
HELM_REGISTRY_FLAGS ?= $(if $(filter 127.0.0.1:% localhost:%,$(REGISTRY)),--plain-http)
RELEASE_PLATFORMS ?= linux/amd64 linux/arm64
RELEASE_DIR ?= $(LOCALBIN)/release/$(VERSION)
IMAGE_REPOSITORY = $(REGISTRY)/transfer-intent-service

# The image builder is a module of its own (hack/image), built into bin/ once; a change of its
# source tests and rebuilds it. cyclonedx-gomod is built by hack/gotool.sh like helm.
IMAGE_BUILDER = $(LOCALBIN)/image-builder
CYCLONEDX_GOMOD_VERSION ?= v1.10.0
CYCLONEDX_GOMOD = $(LOCALBIN)/cyclonedx-gomod-$(CYCLONEDX_GOMOD_VERSION)

$(IMAGE_BUILDER): hack/image/go.mod hack/image/go.sum hack/image/main.go hack/image/main_test.go
	@mkdir -p $(LOCALBIN)
	cd hack/image && GOWORK=off $(GO) test . && GOWORK=off $(GO) build -o $(IMAGE_BUILDER) .

$(CYCLONEDX_GOMOD):
	LOCALBIN=$(LOCALBIN) hack/gotool.sh github.com/CycloneDX/cyclonedx-gomod/cmd/cyclonedx-gomod $(CYCLONEDX_GOMOD_VERSION) >/dev/null

.PHONY: registry-start
registry-start: ## Start a throwaway OCI registry (CNCF Distribution) on a free port of 127.0.0.1 and print its address; make release-local pushes to it.
	@hack/registry.sh start $(REGISTRY_DIR)

.PHONY: registry-stop
registry-stop: ## Stop the registry of make registry-start and delete what it stored.
	@hack/registry.sh stop $(REGISTRY_DIR)

.PHONY: release-local
release-local: $(HELM) $(IMAGE_BUILDER) $(CYCLONEDX_GOMOD) ## Build the multi-arch image and SBOM of VERSION without Docker, push it and the chart to REGISTRY (default: make registry-start's).
	@if [ -z "$(REGISTRY)" ]; then echo "no REGISTRY: start the loopback one with make registry-start, or pass REGISTRY=host[:port]" >&2; exit 1; fi
	rm -rf $(RELEASE_DIR) && mkdir -p $(RELEASE_DIR)
	@for platform in $(RELEASE_PLATFORMS); do \
		echo "==> manager and its SBOM for $$platform"; \
		bin=$(RELEASE_DIR)/manager-$${platform/\//-}; \
		CGO_ENABLED=0 GOOS=$${platform%/*} GOARCH=$${platform#*/} $(GO) build -trimpath \
			-ldflags "-s -w $(VERSION_LDFLAGS)" -o $$bin ./cmd; \
		GOPROXY=off $(CYCLONEDX_GOMOD) bin -json -licenses -std -version $(VERSION) \
			-output $(RELEASE_DIR)/sbom-$${platform/\//-}.cdx.json $$bin 2>$$bin.sbom.log || { cat $$bin.sbom.log; exit 1; }; rm $$bin.sbom.log; \
	done
	$(IMAGE_BUILDER) -image $(IMAGE_REPOSITORY):$(VERSION) -version $(VERSION) -commit $(COMMIT) -out $(RELEASE_DIR) \
		$(foreach p,$(RELEASE_PLATFORMS),-binary $(p)=$(RELEASE_DIR)/manager-$(subst /,-,$(p)))
	KUSTOMIZE="$(KUSTOMIZE)" $(GO) run ./hack/chart -config config -out $(RELEASE_DIR)/chart -version $(VERSION) \
		-image-repository $(IMAGE_REPOSITORY) -image-digest "$$(cat $(RELEASE_DIR)/image-digest)"
	$(HELM) package $(RELEASE_DIR)/chart -d $(RELEASE_DIR)
	$(HELM) push $(RELEASE_DIR)/transfer-intent-service-$(VERSION).tgz oci://$(REGISTRY)/charts $(HELM_REGISTRY_FLAGS)
	@echo "released $(VERSION): helm install transfer-intent oci://$(REGISTRY)/charts/transfer-intent-service --version $(VERSION) $(HELM_REGISTRY_FLAGS)"

##@ Deployment

# Pass ignore-not-found=true to uninstall or undeploy to ignore objects that are already gone.
ignore-not-found ?= false

.PHONY: install
install: manifests ## Install the CRDs into the cluster of the current kubeconfig context.
	$(KUSTOMIZE) config/crd | $(KUBECTL) apply --server-side -f -

.PHONY: uninstall
uninstall: manifests ## Remove the CRDs, and with them every custom resource, from the current cluster.
	$(KUSTOMIZE) config/crd | $(KUBECTL) delete --ignore-not-found=$(ignore-not-found) -f -

.PHONY: deploy
deploy: manifests ## Deploy the service (config/default, namespace transfer-intent-system) with image IMG to the current cluster.
	KUSTOMIZE="$(KUSTOMIZE)" hack/render-deploy.sh "$(IMG)" | $(KUBECTL) apply --server-side -f -

.PHONY: undeploy
undeploy: ## Remove everything deploy created, CRDs included, from the current cluster.
	KUSTOMIZE="$(KUSTOMIZE)" hack/render-deploy.sh "$(IMG)" | $(KUBECTL) delete --ignore-not-found=$(ignore-not-found) -f -

##@ Housekeeping

.PHONY: clean
clean: ## Remove build outputs (keeps the control plane binaries in bin/k8s, which are slow to rebuild, and the generated chart dist/chart).
	rm -f $(LOCALBIN)/manager $(LOCALBIN)/localcluster cover.out
	rm -rf dist/install.yaml test/artifacts
