#!/usr/bin/env bash
# test-deps.sh installs what the browser, validator and link tests need and
# does nothing when it is all there already, so `make test` can call it every
# time. It prints one line for each thing it actually did and exits non-zero
# when an install fails.
set -euo pipefail

cd "$(dirname "$0")/.."

# as_root runs a command as root: directly when we are root, through sudo
# when it exists, and otherwise fails with a message saying what to do.
as_root() {
	if [ "$(id -u)" -eq 0 ]; then
		"$@"
	elif command -v sudo >/dev/null 2>&1; then
		sudo "$@"
	else
		echo "test-deps: need root to run: $*" >&2
		echo "test-deps: run this script as root or install sudo" >&2
		exit 1
	fi
}

# wait_for_background_apt waits for an apt run that the machine's setup may
# have started in the background (it logs to /tmp/apt.log and writes "done"
# at the end); running apt at the same time would fail on the dpkg lock.
wait_for_background_apt() {
	local log=/tmp/apt.log
	[ -f "$log" ] || return 0
	local waited=0
	while ! grep -q '^done' "$log"; do
		if [ "$waited" -eq 0 ]; then
			echo "test-deps: waiting for the background apt run to finish ($log)"
		fi
		sleep 2
		waited=$((waited + 2))
		if [ "$waited" -ge 900 ]; then
			echo "test-deps: gave up after ${waited}s waiting for 'done' in $log" >&2
			exit 1
		fi
	done
}

apt_updated=0
apt_install() {
	wait_for_background_apt
	if [ "$apt_updated" -eq 0 ]; then
		echo "test-deps: apt-get update"
		if ! as_root apt-get update -q >/tmp/test-deps-apt-update.log 2>&1; then
			cat /tmp/test-deps-apt-update.log >&2
			echo "test-deps: apt-get update failed" >&2
			exit 1
		fi
		apt_updated=1
	fi
	echo "test-deps: apt-get install $*"
	if ! as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >/tmp/test-deps-apt-install.log 2>&1; then
		tail -n 40 /tmp/test-deps-apt-install.log >&2
		echo "test-deps: apt-get install $* failed" >&2
		exit 1
	fi
}

# Chromium and the CJK fonts: the browser tests check that Korean text is
# drawn with a CJK font, so the fonts are as much a dependency as the browser.
# (fc-list output goes through a variable: with pipefail, grep -q closing the
# pipe early would make fc-list's SIGPIPE count as "fonts missing".)
fonts="$(fc-list 2>/dev/null || true)"
if [ ! -x /usr/bin/chromium ] || ! grep -qi "Noto Sans CJK" <<<"$fonts"; then
	apt_install chromium fonts-noto-cjk
	[ -x /usr/bin/chromium ] || { echo "test-deps: /usr/bin/chromium still missing after install" >&2; exit 1; }
fi

# nginx: TestNginx (e2e/) runs the README's nginx block in front of two MCP
# replicas. Debian installs it as a service; the test starts its own, as the
# test user, on a loopback port, so a service that apt started is left alone.
if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
	apt_install nginx
	[ -x /usr/sbin/nginx ] || { echo "test-deps: /usr/sbin/nginx still missing after install" >&2; exit 1; }
fi

# Java runs the Nu HTML checker (vnu.jar).
if ! java -version >/dev/null 2>&1; then
	apt_install openjdk-17-jre-headless
	java -version >/dev/null 2>&1 || { echo "test-deps: java still does not run after install" >&2; exit 1; }
fi

# npm packages. --ignore-scripts: vnu-jar's postinstall script tries to
# download a Java runtime, which we neither want nor can reach; the system
# Java above is used instead.
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ] ||
	[ ! -f node_modules/vnu-jar/build/dist/vnu.jar ] || [ ! -f node_modules/axe-core/axe.min.js ] ||
	[ ! -x node_modules/.bin/linkinator ] || [ ! -x node_modules/.bin/html-validate ] ||
	[ ! -x node_modules/.bin/pagefind ] || [ ! -f node_modules/@modelcontextprotocol/sdk/package.json ] ||
	[ ! -f node_modules/@modelcontextprotocol/client/package.json ]; then
	command -v npm >/dev/null 2>&1 || { echo "test-deps: npm is not installed" >&2; exit 1; }
	echo "test-deps: npm ci"
	if ! npm ci --ignore-scripts --no-audit --no-fund >/tmp/test-deps-npm.log 2>&1; then
		cat /tmp/test-deps-npm.log >&2
		echo "test-deps: npm ci failed" >&2
		exit 1
	fi
fi
