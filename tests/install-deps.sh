#!/bin/sh
# What the tests need beyond Python: an OpenSSH server (the SSH tests start
# their own on 127.0.0.x), dash (the collector and remediation scripts run
# under it) and Chromium (the HTML report is checked in a headless browser).
have_sshd() { command -v sshd >/dev/null 2>&1 || [ -x /usr/sbin/sshd ]; }
have_chromium() { command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; }
if have_sshd && command -v dash >/dev/null 2>&1 && command -v ssh-keygen >/dev/null 2>&1 && have_chromium; then
	exit 0
fi
if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
if command -v apt-get >/dev/null 2>&1; then
	$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq openssh-server dash chromium
elif command -v dnf >/dev/null 2>&1; then
	$sudo dnf install -y openssh-server dash chromium
else
	echo "install an OpenSSH server (sshd), dash and chromium for the tests" >&2
	exit 1
fi
