# syntax=docker/dockerfile:1
# Build the manager binary.
FROM golang:1.26 AS builder
ARG TARGETOS
ARG TARGETARCH
# The release (docker build --build-arg VERSION=$(cat VERSION) --build-arg COMMIT=$(git rev-parse HEAD)),
# reported by manager --version and the tis_build_info metric.
ARG VERSION=dev
ARG COMMIT=unknown

WORKDIR /workspace
# Dependencies first, in their own layer: it is reused until go.mod or go.sum change.
COPY go.mod go.sum ./
RUN --mount=type=cache,target=/go/pkg/mod go mod download

# The rest of the source (.dockerignore keeps out binaries, tests and manifests). Copying the tree
# rather than listing directories keeps embedded files (such as the OpenAPI document) in reach.
COPY . .

# A static binary (no cgo) for the platform of the image; GOARCH left empty builds for the host,
# so a plain `docker build` on an arm64 machine gives an arm64 image.
RUN --mount=type=cache,target=/go/pkg/mod \
    --mount=type=cache,target=/root/.cache/go-build \
    CGO_ENABLED=0 GOOS=${TARGETOS:-linux} GOARCH=${TARGETARCH} \
    go build -trimpath -o manager ./cmd \
      -ldflags="-s -w -X github.com/transferintent/transfer-intent-service/internal/version.version=${VERSION} -X github.com/transferintent/transfer-intent-service/internal/version.commit=${COMMIT}"

# A minimal base with no shell or package manager, running as an unprivileged user.
FROM gcr.io/distroless/static:nonroot
WORKDIR /
COPY --from=builder /workspace/manager .
USER 65532:65532

ENTRYPOINT ["/manager"]
