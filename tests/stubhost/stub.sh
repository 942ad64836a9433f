#!/bin/sh
# A stub host (Solaris, Linux, HP-UX) for the SSH tests. Installed under each command name
# (uname, ldm, kstat, ...). It answers from the capture bundle assigned to the
# address the client connected to: $ADVISOR_STUB_ROOT/hosts/<address>/.
# Every command line is appended to $ADVISOR_STUB_ROOT/sent.log.
root=${ADVISOR_STUB_ROOT:?}
tool=${0##*/}
addr=`echo "$SSH_CONNECTION" | awk '{print $3}'`
host=$root/hosts/$addr
case "$tool $*" in "cat /proc/net/dev") echo "$addr $tool $*" >> "$root/sent.log" ;; "cat"|"cat /"[!ek]*) ;; *) echo "$addr $tool $*" >> "$root/sent.log" ;; esac

serve() {  # serve FILE: print it, or behave like a host without that command
	if [ -f "$host/$1" ]; then
		if [ -f "$host/.slow" ] && [ "$1" = kstat-p.txt ]; then sleep `/bin/cat "$host/.slow"`; fi
		if [ -f "$host/.drop" ] && [ "$1" = kstat-p.txt ]; then head -c 2000 "$host/$1"; kill -9 $PPID; exit 1; fi
		if [ -f "$host/.noisy" ] && [ "$1" = kstat-p.txt ]; then yes "noise on stderr" >&2; fi
		if [ -f "$host/.huge" ] && [ "$1" = kstat-p.txt ]; then  # the dump, then .huge bytes more
			/bin/cat "$host/$1"; yes "unix:0:misc:filler	1" | head -c `/bin/cat "$host/.huge"`; exit 0
		fi
		/bin/cat "$host/$1"
		exit 0
	fi
	echo "sh: 1: $tool: not found" >&2
	exit 127
}

sampled() {  # sampled NAME: NAME.txt, or NAME~2.txt once NAME.txt was served (--sample's second reading)
	if [ -f "$host/$1~2.txt" ]; then
		if [ -f "$host/.read-$1" ]; then serve "$1~2.txt"; fi
		: > "$host/.read-$1"
	fi
	serve "$1.txt"
}

case "$tool $*" in
"uname -s") if [ -f "$host/.uname-s" ]; then /bin/cat "$host/.uname-s"; else echo SunOS; fi ;;
"uname -n") awk '{print $2}' "$host/uname-a.txt" ;;
"uname -r") awk '{print $3}' "$host/uname-a.txt" ;;
"uname -a") serve uname-a.txt ;;
"cat /etc/release") serve release.txt ;;
"cat /etc/system") [ -f "$host/etc-system.txt" ] && serve etc-system.txt
	echo "cat: cannot open /etc/system: No such file or directory" >&2; exit 2 ;;
"cat /kernel/drv/"*) f=`basename "$1" .conf`; [ -f "$host/driver-$f.conf" ] && serve "driver-$f.conf"
	echo "cat: cannot open $1: No such file or directory" >&2; exit 2 ;;
"virtinfo -a") serve virtinfo.txt ;;
"psrinfo -pv") serve psrinfo-pv.txt ;;
"pkg info entire") serve pkg-entire.txt ;;
"showrev -p") serve showrev-p.txt ;;
"ldm -V") serve ldm-version.txt ;;
"ldm list -l -p") serve ldm-list-l-p.txt ;;
"ldm list-devices -a") serve ldm-list-devices.txt ;;
"dladm show-phys") serve dladm-show-phys.txt ;;
"dladm show-dev") serve dladm-show-dev.txt ;;
"dladm show-linkprop -c -o "*)
	if [ -f "$host/dladm-show-linkprop.txt" ] && ! head -1 "$host/dladm-show-linkprop.txt" | grep -q '^LINK'; then
		serve dladm-show-linkprop.txt
	fi
	echo "dladm: invalid field(s) specified" >&2; exit 1 ;;
"dladm show-linkprop")
	if [ -f "$host/dladm-show-linkprop.txt" ] && head -1 "$host/dladm-show-linkprop.txt" | grep -q '^LINK'; then
		serve dladm-show-linkprop.txt
	fi
	echo "dladm: no table form stored" >&2; exit 1 ;;
"kstat -p")  # a bundle of two samples answers its second dump the second time (--sample)
	if [ -f "$host/kstat-p~2.txt" ] && [ -f "$host/.kstat-read" ]; then serve kstat-p~2.txt; fi
	[ -f "$host/kstat-p~2.txt" ] && : > "$host/.kstat-read"
	serve kstat-p.txt ;;
"cat /etc/os-release") serve release.txt ;;
"cat /proc/net/dev") sampled proc-net-dev ;;  # never this machine's own
"ip -o link") serve ip-link.txt ;;
"brctl show") serve brctl-show.txt ;;
"sysctl -a") serve sysctl-net.txt ;;
"lspci -vv") serve lspci-vv.txt ;;
"xl "*|"xm "*) serve "$tool-`echo "$*" | tr ' ' '-'`.txt" ;;
"ethtool -k "*) serve "ethtool-k@$2.txt" ;;
"ethtool -i "*) serve "ethtool-i@$2.txt" ;;
"lanscan ") grep -v '^[0-9 ]*$' "$host/lanscan.txt" ;;
"lanscan -q") grep '^[0-9][0-9 ]*$' "$host/lanscan.txt" ;;
"lanscan -v") serve lanscan-v.txt ;;
"lanscan -i") awk '{for (i = 1; i <= NF; i++) if ($i ~ /^lan[0-9]+$/) print $i, "snap" substr($i, 4)}' "$host/lanscan.txt" ;;
"lanscan -p") awk '{for (i = 1; i <= NF; i++) if ($i ~ /^lan[0-9]+$/) print substr($i, 4)}' "$host/lanscan.txt" ;;
"nwmgr -g -A vmtu -c "*) serve "nwmgr-vmtu@$5.txt" ;;
"nwmgr -g -A all -c "*) serve "nwmgr-attrs@$5.txt" ;;
"nwmgr ") serve nwmgr.txt ;;
"lanadmin -x vmtu "*) serve "lanadmin-vmtu@$3.txt" ;;
"ethtool -c "*) serve "ethtool-c@$2.txt" ;;
"ethtool -S "*) sampled "ethtool-stats@$2" ;;
"ethtool "[!-]*) serve "ethtool@$1.txt" ;;  # ethtool IFACE
"lanadmin -g "*) sampled "lanadmin-g@$2" ;;
"ipadm show-prop tcp") serve ipadm-show-prop-tcp.txt ;;
"ndd -get /dev/tcp "*) [ -f "$host/ndd-tcp.txt" ] || { echo "sh: 1: ndd: not found" >&2; exit 127; }
	awk -v p="$3" '$1 == p { v = $NF } END { if (v == "") exit 1; print v }' "$host/ndd-tcp.txt" ;;
"sudo -"*) if [ -f "$host/.sudo-denied" ]; then echo "sudo: a password is required" >&2; exit 1; fi
	# `sudo -n CMD` (advisor --sudo) or Ansible's become: `sudo -H -S -n -u root /bin/sh -c CMD`
	while [ $# -gt 0 ]; do case $1 in -u|-g) shift 2 ;; -*) shift ;; *) break ;; esac; done
	exec "$@" ;;
"pfexec "*) exec "$@" ;;  # $1 is already the command (pfexec is $0)
"cat"|"cat "*) exec /bin/cat "$@" ;;  # any other cat (login scripts) is the real one
*) echo "stub: unexpected command: $tool $*" >&2; exit 99 ;;
esac
