#!/bin/sh
# The SSH tests start their own OpenSSH server on 127.0.0.x; install it when missing.
if command -v sshd >/dev/null 2>&1 || [ -x /usr/sbin/sshd ]; then
	exit 0
fi
if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
if command -v apt-get >/dev/null 2>&1; then
	$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq openssh-server
elif command -v dnf >/dev/null 2>&1; then
	$sudo dnf install -y openssh-server
else
	echo "install an OpenSSH server (sshd) for the SSH tests" >&2
	exit 1
fi
