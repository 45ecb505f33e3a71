#!/usr/bin/env bash
# validate.sh - render docker/k8s with `kubectl kustomize` and schema-check
# every object, plus the example manifests in docker/k8s/examples/.
# `make validate-k8s` runs it; .ci/run runs that.
#
# Needs kubectl (any release with `kustomize`; as root, Debian's
# kubernetes-client is installed when none is found) and Node.js with npm
# (Debian's nodejs and npm, likewise). The validator's npm packages are
# pinned in validator/package-lock.json and installed with `npm ci`.
# Exit status: 0 when every object validates, 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/../.."
here=docker/k8s
version="$(tr -d '[:space:]' < VERSION)"

need() { # need CMD DEBIAN-PACKAGE...
  command -v "$1" >/dev/null 2>&1 && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "validate-k8s: installing ${*:2}"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
      apt-get install -y -qq --no-install-recommends "${@:2}" >/dev/null
  fi
  command -v "$1" >/dev/null 2>&1 ||
    { echo "validate-k8s: $1 not found; install ${*:2}" >&2; exit 1; }
}
KUBECTL="${KUBECTL:-kubectl}"
[ "$KUBECTL" = kubectl ] && need kubectl kubernetes-client
need node nodejs
need npm npm

v="$here/validator"
if [ ! -d "$v/node_modules" ] || [ "$v/package-lock.json" -nt "$v/node_modules" ]; then
  (cd "$v" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  touch "$v/node_modules"
fi

status=0
rendered="$(mktemp)"
trap 'rm -f "$rendered"' EXIT
# 1. What `kubectl apply -k docker/k8s` would apply.
if "$KUBECTL" kustomize "$here" > "$rendered"; then
  node "$v/validate.mjs" --version "$version" --rendered - < "$rendered" || status=1
else
  echo "validate-k8s: kubectl kustomize $here failed" >&2
  status=1
fi
# 2. The files the kustomization lists, one by one (names the file at fault).
node "$v/validate.mjs" --version "$version" --kustomization "$here" || status=1
# 3. The examples applied by hand (Ingress, HTTPRoute).
node "$v/validate.mjs" --version "$version" "$here"/examples/*.yaml || status=1
exit $status
