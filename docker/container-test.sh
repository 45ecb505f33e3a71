#!/usr/bin/env bash
# container-test.sh - builds the top-level Dockerfile with podman and checks
# that the image really serves: solves a puzzle through the published port,
# passes its own HEALTHCHECK, runs as non-root, and on SIGTERM answers the
# in-flight solve and exits 0.
#
# Needs no Docker engine and no registry: the Debian base images are made
# here with debootstrap (minbase, from the mirror this machine's apt uses)
# and imported under the names the Dockerfile asks for; they are cached in
# podman's storage, the rootfs in $GRIDSOLVE_ROOTFS, across runs.
#
#   make container-test        (root installs podman runc debootstrap curl)
#
# Environment: GRIDSOLVE_ROOTFS (default /var/tmp/gridsolve-rootfs),
# GRIDSOLVE_IMAGE (default localhost/gridsolve:container-test),
# GRIDSOLVE_TEST_PORT (default: a free port podman picks),
# GRIDSOLVE_REBASE=1 rebuilds the base images.

# `check && check || fail` is meant: fail runs when either check fails.
# shellcheck disable=SC2015
set -euo pipefail

cd "$(dirname "$0")/.."

ROOTFS=${GRIDSOLVE_ROOTFS:-/var/tmp/gridsolve-rootfs}
IMAGE=${GRIDSOLVE_IMAGE:-localhost/gridsolve:container-test}
HOST_PORT=${GRIDSOLVE_TEST_PORT:-}
BASE_SLIM=docker.io/library/debian:bookworm-slim
BASE_FULL=docker.io/library/debian:bookworm
NAME=gridsolve-ct-$$
STOP_TIMEOUT=30 # podman stop's SIGKILL deadline: well above the drain
# podman's default nofile limit (2^20) is above this machine's hard limit,
# which runc may not raise: every container gets explicit ulimits.
RUN_OPTS=(--runtime runc --ulimit nofile=1024:1024 --ulimit nproc=1024:1024)
WORK=$(mktemp -d /tmp/gridsolve-ct.XXXXXX)
CHECKS=0
T0=$SECONDS

step() { printf '\n[%3ds] == %s\n' $((SECONDS - T0)) "$*"; }
ok() {
    CHECKS=$((CHECKS + 1))
    printf '   ok   %s\n' "$*"
}
info() { printf '   ..   %s\n' "$*"; }
fail() {
    printf '   FAIL %s\n' "$*" >&2
    if podman container exists "$NAME" 2>/dev/null; then
        printf '   --- last container log lines ---\n' >&2
        podman logs --tail 30 "$NAME" >&2 2>&1 || true
    fi
    printf '\ncontainer-test: %d passed, 1 failed\n' "$CHECKS"
    exit 1
}

cleanup() {
    if [ -n "${CURL_PID:-}" ]; then kill "$CURL_PID" 2>/dev/null || true; fi
    podman rm -f -t 0 "$NAME" >/dev/null 2>&1 || true
    rm -rf "$WORK"
}
trap cleanup EXIT

# ---- tools ---------------------------------------------------------------

# Installs podman & co. when missing and we are root; otherwise says what
# is missing.
ensure_tools() {
    local missing=()
    for t in podman runc debootstrap curl; do
        command -v "$t" >/dev/null 2>&1 || missing+=("$t")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if [ "$(id -u)" != 0 ]; then
        fail "missing ${missing[*]}; as root: apt-get install podman runc debootstrap curl"
    fi
    info "installing podman runc debootstrap curl"
    apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
        --no-install-recommends podman runc debootstrap curl >/dev/null
}

# ---- base images ---------------------------------------------------------

# Prints the first URI this machine's apt uses for suite $1 (deb822
# .sources stanzas and one-line .list entries), or nothing.
apt_uri_for_suite() {
    local suite=$1 f
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -r "$f" ] || continue
        awk -v s="$suite" '
            function flush() {
                if (uri != "" && hit && types ~ /(^| )deb( |$)/) {
                    print uri; found = 1; exit
                }
                uri = ""; hit = 0; types = ""
            }
            /^[ \t]*$/ { flush(); next }
            /^Types:/ { types = $0; sub(/^Types:[ \t]*/, "", types) }
            /^URIs:/ { uri = $2 }
            /^Suites:/ { for (i = 2; i <= NF; i++) if ($i == s) hit = 1 }
            END { if (!found) flush() }' "$f"
    done
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -r "$f" ] || continue
        # deb [options] URI SUITE COMPONENTS...
        sed -e 's/\[[^]]*\]//' "$f" |
            awk -v s="$suite" '$1 == "deb" && $3 == s { print $2 }'
    done
}

# First non-empty line of stdin, or $1.
first_or() {
    local line
    IFS= read -r line || true
    printf '%s\n' "${line:-$1}"
}

# Makes the minbase rootfs in $ROOTFS (once) and configures it like the
# official slim image: the same mirror for apt, no docs, apt lists emptied.
make_rootfs() {
    local mirror=$1 security=$2
    if [ -f "$ROOTFS/.gridsolve-complete" ] && [ "${GRIDSOLVE_REBASE:-0}" != 1 ]; then
        info "rootfs cached in $ROOTFS"
        return 0
    fi
    rm -rf "$ROOTFS.tmp"
    info "debootstrap --variant=minbase bookworm $ROOTFS ($mirror)"
    debootstrap --variant=minbase bookworm "$ROOTFS.tmp" "$mirror" \
        >"$WORK/debootstrap.log" 2>&1 ||
        {
            tail -20 "$WORK/debootstrap.log" >&2
            fail "debootstrap failed"
        }
    local r=${ROOTFS:?}.tmp
    rm -f "$r/etc/apt/sources.list"
    cat >"$r/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $mirror
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: $security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    # What debian:*-slim ships, so images built on it are as small.
    cat >"$r/etc/dpkg/dpkg.cfg.d/docker" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
path-exclude /usr/share/lintian/*
path-exclude /usr/share/linda/*
EOF
    cat >"$r/etc/apt/apt.conf.d/docker-clean" <<'EOF'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
EOF
    printf 'Acquire::Languages "none";\n' >"$r/etc/apt/apt.conf.d/docker-no-languages"
    find "$r/usr/share/doc" -mindepth 2 ! -name copyright ! -type d -delete
    find "$r/usr/share/doc" -mindepth 1 -type d -empty -delete
    rm -rf "${r:?}"/usr/share/man/* "${r:?}"/usr/share/info/* \
        "${r:?}"/usr/share/locale/* "${r:?}"/var/lib/apt/lists/* \
        "${r:?}"/var/cache/apt/*.bin "${r:?}"/var/cache/apt/archives/*.deb \
        "${r:?}"/var/log/* "${r:?}"/dev/*
    touch "$r/.gridsolve-complete"
    rm -rf "${ROOTFS:?}"
    mv "$r" "$ROOTFS"
}

# Imports the rootfs as both base images the Dockerfile names.
ensure_base_images() {
    if podman image exists "$BASE_SLIM" && podman image exists "$BASE_FULL" &&
        [ "${GRIDSOLVE_REBASE:-0}" != 1 ]; then
        ok "base images $BASE_SLIM and $BASE_FULL cached"
        return 0
    fi
    local mirror security
    mirror=$(apt_uri_for_suite bookworm | first_or http://deb.debian.org/debian)
    security=$(apt_uri_for_suite bookworm-security |
        first_or http://deb.debian.org/debian-security)
    make_rootfs "$mirror" "$security"
    info "podman import $ROOTFS as $BASE_SLIM"
    tar --numeric-owner --exclude=./.gridsolve-complete -C "$ROOTFS" -cf - . |
        podman import \
            --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
            --change 'CMD ["bash"]' - "$BASE_SLIM" >/dev/null 2>"$WORK/import.log" ||
        fail "podman import failed: $(cat "$WORK/import.log")"
    podman tag "$BASE_SLIM" "$BASE_FULL"
    ok "base images $BASE_SLIM and $BASE_FULL imported"
}

# ---- HTTP helpers --------------------------------------------------------

# http METHOD PATH [curl args...]: body to $WORK/body, prints the status.
http() {
    local method=$1 path=$2
    shift 2
    # -w prints 000 when no HTTP answer came; the exit status adds nothing.
    curl -s -m 30 -o "$WORK/body" -w '%{http_code}' -X "$method" \
        "$@" "http://127.0.0.1:$HOST_PORT$path" || true
}

# Waits up to $2 seconds for GET $1 to answer 200.
wait_200() {
    local i
    for ((i = 0; i < $2 * 10; i++)); do
        [ "$(http GET "$1")" = 200 ] && return 0
        sleep 0.1
    done
    return 1
}

# ---- the test ------------------------------------------------------------

step "tools"
ensure_tools
ok "$(podman --version), $(runc --version | head -1)"

step "base images (debootstrap minbase bookworm, podman import)"
ensure_base_images

step "podman build --runtime runc (build stage runs make and the unit tests)"
build_t0=$SECONDS
# --format docker keeps HEALTHCHECK (the OCI format has no such field);
# --pull=never because no registry is reachable: the bases are local.
VERSION=$(tr -d '[:space:]' <VERSION)
REVISION=$(git rev-parse HEAD 2>/dev/null || echo unknown)
# --format docker: the OCI format has no HEALTHCHECK and podman drops it.
if ! podman build --runtime runc --format docker --pull=never \
    --build-arg VERSION="$VERSION" --build-arg REVISION="$REVISION" \
    -t "$IMAGE" -f Dockerfile . >"$WORK/build.log" 2>&1; then
    tail -40 "$WORK/build.log" >&2
    fail "podman build failed (full log above, last 40 lines)"
fi
grep -E '^[0-9]+%|[0-9]+ checks' "$WORK/build.log" | tail -3 | sed 's/^/   ..   unit tests: /'
ok "image $IMAGE built in $((SECONDS - build_t0))s"

step "image facts"
size=$(podman image inspect --format '{{.Size}}' "$IMAGE")
info "size: $((size / 1000000)) MB ($size bytes; base $(($(podman image inspect --format '{{.Size}}' "$BASE_SLIM") / 1000000)) MB)"
user=$(podman image inspect --format '{{.Config.User}}' "$IMAGE")
case "$user" in
"" | 0 | 0:* | root | root:*) fail "image runs as root (User='$user')" ;;
*) ok "runs as user $user" ;;
esac
ep=$(podman image inspect --format '{{json .Config.Entrypoint}}' "$IMAGE")
[ "$ep" = '["/usr/local/bin/gridsolve","serve"]' ] ||
    fail "entrypoint is $ep, expected the exec form of gridsolve serve"
ok "exec-form entrypoint $ep"
lv=$(podman image inspect --format '{{index .Labels "org.opencontainers.image.version"}}' "$IMAGE")
[ "$lv" = "$VERSION" ] || fail "label org.opencontainers.image.version is '$lv', VERSION is '$VERSION'"
ok "OCI label org.opencontainers.image.version=$lv"
hc=$(podman image inspect --format '{{json .Config.Healthcheck}}' "$IMAGE")
case "$hc" in *health*) ok "HEALTHCHECK present: $hc" ;; *) fail "no HEALTHCHECK: $hc" ;; esac
# --no-healthcheck: one-shot runs need no health timer (systemd-less host).
ldd_out=$(podman run --rm "${RUN_OPTS[@]}" --no-healthcheck --network none \
    --entrypoint ldd "$IMAGE" /usr/local/bin/gridsolve 2>&1) ||
    fail "ldd in the image failed: $ldd_out"
if grep -q 'not found' <<<"$ldd_out"; then
    printf '%s\n' "$ldd_out" >&2
    fail "runtime libraries missing in the image"
fi
ok "every shared library resolves ($(grep -c '=>' <<<"$ldd_out") libraries)"
for pkg in curl wget gcc make; do
    if podman run --rm "${RUN_OPTS[@]}" --no-healthcheck --network none \
        --entrypoint bash "$IMAGE" -c "command -v $pkg" >/dev/null 2>&1; then
        fail "runtime image contains $pkg"
    fi
done
ok "no curl, wget, gcc or make in the runtime image"
# docker/k8s/deployment.yaml's preStop hook execs `sleep` in the image.
podman run --rm "${RUN_OPTS[@]}" --no-healthcheck --network none \
    --entrypoint sleep "$IMAGE" 0 >/dev/null 2>&1 ||
    fail "the image has no sleep, which the Kubernetes preStop hook runs"
ok "sleep present (the Kubernetes preStop hook)"

step "podman run (runc, ulimits, one CPU, read-only, no capabilities)"
# --cpus 1: the server must size its pool from the cgroup CPU quota. The
# hardening is what docker/k8s/deployment.yaml asks of the cluster: a
# read-only root without podman's extra tmpfs mounts, no capabilities, no
# privilege escalation.
podman run -d --name "$NAME" "${RUN_OPTS[@]}" --cpus 1 \
    --read-only --read-only-tmpfs=false --cap-drop ALL \
    --security-opt no-new-privileges \
    -p "127.0.0.1:${HOST_PORT}:8080" "$IMAGE" >"$WORK/run.log" 2>&1 ||
    fail "podman run failed: $(cat "$WORK/run.log")"
if [ -z "$HOST_PORT" ]; then
    HOST_PORT=$(podman port "$NAME" 8080 | head -1 | sed 's/.*://')
fi
info "container $NAME on 127.0.0.1:$HOST_PORT"
for ((i = 0; i < 100; i++)); do
    podman logs "$NAME" 2>/dev/null | grep -q '^listening on ' && break
    [ "$(podman inspect --format '{{.State.Running}}' "$NAME")" = true ] ||
        fail "container exited during start-up"
    sleep 0.1
done
line=$(podman logs "$NAME" 2>/dev/null | grep '^listening on ' | head -1)
[ "$line" = "listening on 0.0.0.0:8080" ] ||
    fail "expected 'listening on 0.0.0.0:8080', got '$line'"
ok "server printed '$line'"
uid=$(podman exec "$NAME" id -u)
[ "$uid" != 0 ] || fail "server process runs as root"
ok "server process uid $uid"

step "service endpoints through the published port"
wait_200 /healthz 10 || fail "GET /healthz never answered 200"
ok "GET /healthz 200"
wait_200 /readyz 10 || fail "GET /readyz never answered 200"
ok "GET /readyz 200"
[ "$(http GET /openapi.yaml)" = 200 ] && head -c 8 "$WORK/body" | grep -q '^openapi:' ||
    fail "GET /openapi.yaml did not serve the spec"
ok "GET /openapi.yaml serves the spec"
[ "$(http GET /puzzles)" = 200 ] && grep -q sokoban "$WORK/body" ||
    fail "GET /puzzles did not list the puzzles"
ok "GET /puzzles lists the puzzles"
[ "$(http GET /metrics)" = 200 ] || fail "GET /metrics failed"
workers=$(awk '$1 == "gridsolve_workers" {print $2}' "$WORK/body")
[ "$workers" = 1 ] ||
    fail "with --cpus 1 the server runs '${workers:-?}' workers, expected 1"
ok "GET /metrics: gridsolve_workers 1 (from the cgroup CPU quota; host has $(nproc))"
# Runs the image's own HEALTHCHECK command in the container now (podman's
# timer for it needs systemd, which this host may lack).
podman healthcheck run "$NAME" >"$WORK/hc.out" 2>&1 ||
    fail "HEALTHCHECK failed: $(cat "$WORK/hc.out")"
health=$(podman inspect --format '{{.State.Health.Status}}' "$NAME")
[ "$health" = healthy ] || fail "health status '$health' after a passing check"
ok "the image's HEALTHCHECK passes: container $health"

step "solve through the container"
code=$(http POST /solve/bloxorz -H 'Content-Type: application/json' \
    --data-binary '{"grid": ["#######", "#..X###", "#..##O#", "#....E#",
                             "#....E#", "#.....#", "#######"]}')
[ "$code" = 200 ] || fail "JSON solve answered $code: $(cat "$WORK/body")"
grep -q '"status": *"solved"' "$WORK/body" &&
    grep -q '"steps": *10[,}]' "$WORK/body" ||
    fail "JSON solve: expected solved in 10 steps, got $(cat "$WORK/body")"
ok "POST /solve/bloxorz (JSON): solved in 10 steps"
printf '7 7\n#######\n#..X###\n#..##O#\n#....E#\n#....E#\n#.....#\n#######\n0 0\n' \
    >"$WORK/blox.in"
code=$(http POST /solve/bloxorz -H 'Content-Type: text/plain' \
    --data-binary @"$WORK/blox.in")
[ "$code" = 200 ] && [ "$(cat "$WORK/body")" = 10 ] ||
    fail "judge mode answered $code: $(cat "$WORK/body")"
ok "POST /solve/bloxorz (judge text): 10"
code=$(http POST /solve/curling -H 'Content-Type: text/plain' \
    --data-binary $'6 6\n1 0 0 2 1 0\n1 1 0 0 0 0\n0 0 0 0 0 3\n0 0 0 0 0 0\n1 0 0 0 0 1\n0 1 1 1 1 1\n0 0\n')
[ "$code" = 200 ] && [ "$(cat "$WORK/body")" = 4 ] ||
    fail "curling judge mode answered $code: $(cat "$WORK/body")"
ok "POST /solve/curling (judge text): 4"


step "SIGTERM with a slow solve in flight"
# Six boxes in an open 24x24 room: far beyond what the search finishes,
# so the solve runs until its deadline (60 s) unless the drain cancels it.
cat >"$WORK/slow.json" <<'JSON'
{"grid": ["########################", "#@                     #",
          "#           .          #", "#                   .  #",
          "#                      #", "#    $                 #",
          "#               $      #", "#                      #",
          "#        $             #", "#                      #",
          "#                      #", "#          .           #",
          "#     $                #", "#                      #",
          "#                      #", "#              $       #",
          "#                      #", "#                      #",
          "#         $            #", "#           .          #",
          "#  .                .  #", "#                      #",
          "#                      #", "########################"],
 "limits": {"timeout_ms": 60000}}
JSON
curl -sS -m 90 -o "$WORK/slow.out" -w '%{http_code}' \
    -H 'Content-Type: application/json' --data-binary @"$WORK/slow.json" \
    "http://127.0.0.1:$HOST_PORT/solve/sokoban" >"$WORK/slow.code" 2>&1 &
CURL_PID=$!
sleep 2
kill -0 "$CURL_PID" 2>/dev/null || fail "the slow solve ended before SIGTERM"
[ "$(http GET /metrics)" = 200 ] &&
    busy=$(awk '$1 == "gridsolve_workers_busy" {print $2}' "$WORK/body")
ok "slow solve in flight after 2s (busy workers: ${busy:-?})"
stop_t0=$SECONDS
# What `docker stop` does: SIGTERM to PID 1, SIGKILL after the timeout.
podman stop -t "$STOP_TIMEOUT" "$NAME" >/dev/null 2>&1 &
STOP_PID=$!
# The listener stays up while draining: readiness fails, solves are refused.
for ((i = 0; i < 20; i++)); do
    code=$(http GET /readyz)
    [ "$code" = 503 ] && break
    sleep 0.1
done
if [ "$code" = 503 ]; then
    ok "GET /readyz 503 while draining"
    code=$(curl -sS -m 10 -D "$WORK/hdr" -o "$WORK/body" -w '%{http_code}' \
        -H 'Content-Type: text/plain' --data-binary @"$WORK/blox.in" \
        "http://127.0.0.1:$HOST_PORT/solve/bloxorz" || echo 000)
    if [ "$code" = 503 ] && grep -qi '^retry-after:' "$WORK/hdr"; then
        ok "a new solve while draining: 503 with Retry-After"
    elif [ "$code" = 000 ]; then
        info "a new solve while draining: connection closed (drain ended)"
    else
        fail "a new solve while draining answered $code"
    fi
else
    info "readyz answered $code after SIGTERM (drain already over?)"
fi
wait "$STOP_PID" || true
stop_s=$((SECONDS - stop_t0))
exit_code=$(podman inspect --format '{{.State.ExitCode}}' "$NAME")
[ "$exit_code" = 0 ] ||
    fail "container exited with status $exit_code after SIGTERM (137 = killed)"
ok "container exited 0 after SIGTERM, stop took ${stop_s}s (SIGKILL at ${STOP_TIMEOUT}s)"
wait "$CURL_PID" || true
CURL_PID=
slow_code=$(cat "$WORK/slow.code")
[ "$slow_code" = 200 ] ||
    fail "in-flight solve answered '$slow_code': $(cat "$WORK/slow.out")"
grep -q '"status": *"\(limit\|solved\|impossible\)"' "$WORK/slow.out" ||
    fail "in-flight solve body is not a solve result: $(cat "$WORK/slow.out")"
ok "in-flight solve answered 200: $(head -c 160 "$WORK/slow.out")"
podman logs "$NAME" 2>&1 | grep -i 'drain' | head -3 | sed 's/^/   ..   log: /'

printf '\n%s: image %s, %d MB, %ds in all\n' "$(basename "$0")" "$IMAGE" \
    $((size / 1000000)) $((SECONDS - T0))
printf 'container-test: %d passed, 0 failed\n' "$CHECKS"
