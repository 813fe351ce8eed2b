#!/usr/bin/env bash
# test-quick.sh runs the quick loop (make test-quick): go test -short over
# every package. The tests write thousands of small files (builds of whole
# sites, copies of the content); on a disk that costs about ten times the
# system time it costs in memory, so their temporary folders go to a tmpfs
# when there is one with room (/dev/shm with 4 GB free), in a folder of the
# user's own whose name does not change, so that go test still caches
# passing results. A TMPDIR set in the environment wins. Arguments are
# passed to go test (make test-quick ARGS=-count=1).
set -euo pipefail

cd "$(dirname "$0")/.."

shm=/dev/shm
if [ -z "${TMPDIR:-}" ] && [ -d "$shm" ] && [ -w "$shm" ] &&
	[ "$(df -Pk "$shm" | awk 'NR == 2 { print $4 }')" -gt 4000000 ]; then
	dir="$shm/incidentlib-test-$(id -u)"
	mkdir -p -m 700 "$dir" 2>/dev/null || true
	# Only a real folder of our own: not another user's, nor a link.
	if [ -d "$dir" ] && [ ! -L "$dir" ] && [ -O "$dir" ]; then
		chmod 700 "$dir"
		export TMPDIR="$dir"
	fi
fi
exec "${GO:-go}" test -short "$@" ./...
