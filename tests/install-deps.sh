#!/bin/sh
# What the tests need beyond Python: an OpenSSH server (the SSH tests start
# their own on 127.0.0.x) and dash (the collector script runs under it).
have_sshd() { command -v sshd >/dev/null 2>&1 || [ -x /usr/sbin/sshd ]; }
if have_sshd && command -v dash >/dev/null 2>&1 && command -v ssh-keygen >/dev/null 2>&1; then
	exit 0
fi
if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
if command -v apt-get >/dev/null 2>&1; then
	$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq openssh-server dash
elif command -v dnf >/dev/null 2>&1; then
	$sudo dnf install -y openssh-server dash
else
	echo "install an OpenSSH server (sshd) and dash for the tests" >&2
	exit 1
fi
