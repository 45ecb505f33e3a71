# Dockerfile - the gridsolve service image.
#
# Two stages: `build` compiles the binary and runs the unit tests on full
# Debian; the runtime stage is bookworm-slim with only the two runtime
# libraries, the stripped binary and the OpenAPI document, running as an
# unprivileged user.
#
#   docker build --build-arg VERSION="$(cat VERSION)" \
#                --build-arg REVISION="$(git rev-parse HEAD)" -t gridsolve:0.2.0 .
#   docker run --rm -p 8081:8080 gridsolve:0.2.0
#
# VERSION (default: the one below, which must match the VERSION file, or
# the build fails) and REVISION fill the OCI labels.
#
# docker/container-test.sh builds and runs this file unchanged with podman.

ARG VERSION=0.2.0

FROM debian:bookworm AS build

ARG DEBIAN_FRONTEND=noninteractive
# Build dependencies only (the Makefile's DEB_PKGS minus the curl CLI); in
# their own layer so editing the sources does not reinstall them.
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
        build-essential pkg-config libmicrohttpd-dev libcjson-dev \
        check libsubunit-dev libcurl4-openssl-dev \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /src
COPY . .
# The image's version label must be the source's version. (The build
# arguments are declared late: a new REVISION must not void the apt layers.)
ARG VERSION
RUN test "$(cat VERSION)" = "$VERSION" \
 || { echo "VERSION file says $(cat VERSION) but --build-arg VERSION=$VERSION" >&2; exit 1; }
# The build context has no .git (.dockerignore) and this stage no git, so
# the commit that /version, gridsolve_build_info and --version report comes
# from REVISION (its first 12 digits, as the Makefile's own); without it
# they say "unknown".
ARG REVISION=unknown
# A failing unit test fails the image build. Check forks one process per
# test, which works in an unprivileged build container.
RUN commit=; [ "$REVISION" = unknown ] || commit="$(printf '%.12s' "$REVISION")"; \
    make -j"$(nproc)" build GS_COMMIT="$commit" \
 && make check-unit GS_COMMIT="$commit" \
 && install -D -s -m 0755 build/gridsolve /out/gridsolve

FROM debian:bookworm-slim

ARG DEBIAN_FRONTEND=noninteractive
# The binary links only libc: the first JSON call loads libcjson1 and
# `serve` loads libmicrohttpd12 at start (dlopen: `solve` on judge text
# starts without either); no
# ca-certificates (the service makes no outbound TLS calls) and no curl.
RUN apt-get update \
 && apt-get install -y --no-install-recommends libmicrohttpd12 libcjson1 \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /var/log/apt \
        /var/log/dpkg.log \
 && groupadd --system --gid 10001 gridsolve \
 && useradd --system --uid 10001 --gid 10001 --no-create-home \
        --home-dir /nonexistent --shell /usr/sbin/nologin gridsolve

COPY --from=build /out/gridsolve /usr/local/bin/gridsolve
# The binary embeds the same document for GET /openapi.yaml; this copy is
# for people and tools inspecting the image.
COPY api/openapi.yaml /usr/share/gridsolve/openapi.yaml
COPY LICENSE /usr/share/doc/gridsolve/LICENSE

# OCI labels; VERSION must equal the VERSION file (checked in the build
# stage), REVISION is the git commit.
ARG VERSION
ARG REVISION=unknown
LABEL org.opencontainers.image.title="gridsolve" \
      org.opencontainers.image.description="HTTP service that solves five grid puzzles exactly (bloxorz, wallpushers, sokoban, curling, holedox)" \
      org.opencontainers.image.version="$VERSION" \
      org.opencontainers.image.revision="$REVISION" \
      org.opencontainers.image.licenses="MIT" \
      org.opencontainers.image.vendor="the gridsolve authors" \
      org.opencontainers.image.base.name="docker.io/library/debian:bookworm-slim"

# The server defaults to 127.0.0.1, unreachable from outside a container.
ENV GRIDSOLVE_BIND=0.0.0.0 \
    GRIDSOLVE_PORT=8080
EXPOSE 8080

# Numeric, so Kubernetes' runAsNonRoot can verify it without /etc/passwd.
USER 10001:10001

# Slim has no curl: the binary probes itself (GET /healthz on 127.0.0.1
# and $GRIDSOLVE_PORT, exit 0 on 200).
HEALTHCHECK --interval=15s --timeout=5s --start-period=5s --retries=3 \
    CMD ["/usr/local/bin/gridsolve", "health"]

# Exec form: gridsolve is PID 1 and receives SIGTERM itself; it stops
# accepting, answers the in-flight solves within its grace period
# (GRIDSOLVE_GRACE_MS) and exits 0.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/gridsolve", "serve"]
