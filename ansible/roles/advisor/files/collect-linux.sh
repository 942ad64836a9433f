#!/bin/sh
# advisor 0.1.0 collector for linux hosts.
# Runs read-only commands only and leaves <host>-<time>.tar.gz in the current
# folder (or in $ADVISOR_OUT) for `advisor review`. Nothing is changed on the host.
# ADVISOR_OUT=- writes the bundle to standard output as text instead (base64, else
# uuencode), between "@@advisor-bundle" and "@@advisor-end" lines, for a caller that
# reads it there (the Ansible collection). ADVISOR_HOST names the host in the bundle
# (default: uname -n). ADVISOR_COMMAND_TIMEOUT stops a command after that many seconds
# (default 300); the bundle keeps what the others printed. ADVISOR_DEADLINE bounds
# the whole collection the same way (seconds; default none). ADVISOR_SAMPLE reads the
# counters (cat /proc/net/dev, ethtool -S per interface) again that many seconds after the first time, for rates
# (whole seconds, 1 to 600; default 0: once), as advisor collect's --sample.
PATH=$PATH:/usr/sbin:/usr/bin:/sbin:/bin
export PATH
umask 077
LC_ALL=C
export LC_ALL

host=${ADVISOR_HOST:-`uname -n`}
case $host in
''|*[!A-Za-z0-9._-]*) name=host ;;  # the folder and file name; the manifest keeps the name as given
*) name=$host ;;
esac
stamp=`date -u +%Y%m%dT%H%M%SZ`
out=${ADVISOR_OUT:-.}
limit=${ADVISOR_COMMAND_TIMEOUT:-300}  # seconds a command may take, as advisor collect's --command-timeout
case $limit in ''|*[!0-9]*|0|0*) echo "ADVISOR_COMMAND_TIMEOUT=$limit: give whole seconds, at least 1" >&2; exit 2 ;; esac
deadline=${ADVISOR_DEADLINE:-0}  # seconds the whole collection may take (0: no limit)
case $deadline in ''|*[!0-9]*) echo "ADVISOR_DEADLINE=$deadline: give whole seconds" >&2; exit 2 ;; esac
sample=${ADVISOR_SAMPLE:-0}  # seconds between the two readings of the counters (0: read once)
case $sample in ''|*[!0-9]*|0?*) echo "ADVISOR_SAMPLE=$sample: give whole seconds, 1 to 600 (0: once)" >&2; exit 2 ;; esac
if [ $sample -gt 600 ]; then echo "ADVISOR_SAMPLE=$sample: give whole seconds, 1 to 600 (0: once)" >&2; exit 2; fi
sampler=  # the sleep the second reading waits for, started with the first
taken=  # the taken_at of a sampled command's manifest entry
suffix=  # ~2 while a per-interface loop is read the second time
work=${TMPDIR:-/tmp}/advisor.$$
dir=$work/bundle/$name  # beside, never among, the scratch files (err, items, host)
rm -rf "$work"
mkdir -p "$dir" || exit 1
late=
if [ $deadline -gt 0 ]; then  # when the time is up, the command running is stopped and the rest are not run
	( sleep $deadline; echo x > "$work/late"; [ -f "$work/pid" ] && kill -TERM `cat "$work/pid"` ) > /dev/null 2>&1 &
	late=$!
fi
trap 'if [ -n "$late" ]; then kill $late 2> /dev/null; fi; case x$sampler in x|xdone) ;; *) kill $sampler 2> /dev/null ;; esac; rm -rf "$work"' 0
trap 'exit 1' 1 2 15
manifest=$dir/manifest.yaml

# yaml_text FILE: the first 20 lines as the inside of a YAML double-quoted string
yaml_text() {
	head -20 "$1" | tr -d '\000-\010\013-\037' | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' |
		awk 'BEGIN { ORS = "" } { if (NR > 1) print "\\n"; print }'
}

# hash256 FILE: its sha256, when the host has a tool for it
hash256() {
	if [ -x /usr/bin/digest ]; then /usr/bin/digest -a sha256 "$1"
	elif [ -x /usr/bin/sha256sum ]; then /usr/bin/sha256sum "$1" | awk '{print $1}'
	elif [ -x /usr/bin/openssl ]; then /usr/bin/openssl dgst -sha256 "$1" | awk '{print $NF}'
	fi
}

echo "format: advisor-capture/1" > "$manifest"
printf '%s\n' "$host" > "$work/host"
printf '%s\n' "host: \"`yaml_text "$work/host"`\"" >> "$manifest"
echo "collected_at: \"`date -u +%Y-%m-%dT%H:%M:%SZ`\"" >> "$manifest"
if [ $sample -gt 0 ]; then echo "sample: \"${sample}s\"" >> "$manifest"; fi
echo "commands:" >> "$manifest"
# encode: standard input as text, after a line naming the encoding
encode() {
	if (base64 </dev/null) >/dev/null 2>&1; then echo "@@advisor-encoding base64"; base64
	elif (openssl base64 </dev/null) >/dev/null 2>&1; then echo "@@advisor-encoding base64"; openssl base64
	else echo "@@advisor-encoding uuencode"; uuencode bundle
	fi
}

# bounded FILE MAX COMMAND: run it, its output into FILE and its errors into $work/err.
# The output stops at about MAX bytes (ulimit -f), so the host's disk and the
# caller's memory stay bounded; then it is not kept. The command is stopped after
# $limit seconds, as advisor collect stops it, and none runs once the
# collection's $deadline seconds are up. Sets status: the exit status, or "null"
# when it never finished (timed out).
bounded() {
	if [ -f "$work/late" ]; then
		status=null; : > "$1"; echo "not run: the collection's $deadline s were up" > "$work/err"; return
	fi
	rm -f "$work/timedout"
	( ulimit -c 0; ulimit -f `expr $2 / 512`; exec sh -c "$3" ) > "$1" 2> "$work/err" &
	pid=$!
	echo $pid > "$work/pid"
	( sleep $limit; echo x > "$work/timedout"; kill -TERM $pid; sleep 2; kill -KILL $pid ) > /dev/null 2>&1 &
	dog=$!
	wait $pid
	status=$?
	rm -f "$work/pid"
	kill $dog 2> /dev/null
	if [ -f "$work/timedout" ]; then
		status=null; : > "$1"; echo "timed out after $limit s" > "$work/err"
	elif [ -f "$work/late" ] && [ $status -ne 0 ]; then
		status=null; : > "$1"; echo "stopped: the collection's $deadline s were up" > "$work/err"
	elif [ `wc -c < "$1"` -ge $2 ]; then
		: > "$1"; echo "more than $2 bytes of output; not kept" > "$work/err"
		[ $status -eq 0 ] && status=1
	fi
}

# run ID FILE YAML-COMMAND COMMAND [FALLBACK YAML-FALLBACK FALLBACK-FILE FALLBACK-ID]:
# run it (or its fallback), keep the output and its manifest entry
run() {
	id=$1; file=$2; yaml_cmd=$3; cmd=$4
	bounded "$dir/$file" 536870912 "$cmd"
	if [ "$status" != 0 ] && [ "$status" != null ] && [ -n "$5" ]; then
		rm -f "$dir/$file"
		cmd=$5; yaml_cmd=$6; file=$7; id=$8
		bounded "$dir/$file" 536870912 "$cmd"
	fi
	if [ "$status" = 0 ] && [ -s "$dir/$file" ]; then
		printf '%s\n' "  - {id: $id, file: $file, command: \"$yaml_cmd\", exit_status: $status, stderr: \"`yaml_text $work/err`\", ${taken}sha256: `hash256 $dir/$file`}" >> "$manifest"
	else
		rm -f "$dir/$file"
		printf '%s\n' "  - {id: $id, file: null, command: \"$yaml_cmd\", ${taken}exit_status: $status, stderr: \"`yaml_text $work/err`\"}" >> "$manifest"
	fi
}

# run_sampled ARGS...: run's, for a command whose counters are read twice with
# $sample: its entry says when it ran, and the first one starts the wait
run_sampled() {
	if [ $sample -gt 0 ]; then
		taken="taken_at: \"`date -u +%Y-%m-%dT%H:%M:%SZ`\", "
		if [ -z "$sampler" ]; then sleep $sample > /dev/null 2>&1 & sampler=$!; fi
	fi
	run "$@"
	taken=
}

# run_items_sampled SUFFIX ARGS...: run_items's, for a loop whose counters are read
# twice with $sample: its files are ID@NAME$SUFFIX.txt, its entries say when it ran
run_items_sampled() {
	suffix=$1; shift
	if [ $sample -gt 0 ]; then
		taken="taken_at: \"`date -u +%Y-%m-%dT%H:%M:%SZ`\", "
		if [ -z "$sampler" ]; then sleep $sample > /dev/null 2>&1 & sampler=$!; fi
	fi
	run_items "$@"
	taken=; suffix=
}

# run_items ID YAML-COMMAND COMMAND [FALLBACK YAML-FALLBACK FALLBACK-ID]: a loop over
# interfaces whose "@@advisor NAME" sections become ID@NAME$suffix.txt files
run_items() {
	id=$1; yaml_cmd=$2; cmd=$3
	bounded "$work/items" 16777216 "$cmd"
	if [ "$status" != 0 ] && [ "$status" != null ] && [ -n "$4" ]; then
		cmd=$4; yaml_cmd=$5; id=$6
		bounded "$work/items" 16777216 "$cmd"
	fi
	if [ "$status" != 0 ]; then
		printf '%s\n' "  - {id: $id, file: null, command: \"$yaml_cmd\", exit_status: $status, stderr: \"`yaml_text $work/err`\"}" >> "$manifest"
		return
	fi
	ID=$id DIR=$dir YAML_CMD=$yaml_cmd SUFFIX=$suffix TAKEN=$taken awk '
	function flush() {
		if (item == "") return
		close(file)
		if (status == "0" && lines > 0)
			printf "  - {id: %s@%s%s, file: %s@%s%s.txt, command: \"%s\", %sexit_status: 0, stderr: \"\"}\n", ENVIRON["ID"], item, ENVIRON["SUFFIX"], ENVIRON["ID"], item, ENVIRON["SUFFIX"], ENVIRON["YAML_CMD"], ENVIRON["TAKEN"]
		else {
			printf "  - {id: %s@%s%s, file: null, command: \"%s\", %sexit_status: %s, stderr: \"%s\"}\n", ENVIRON["ID"], item, ENVIRON["SUFFIX"], ENVIRON["YAML_CMD"], ENVIRON["TAKEN"], (status == "" ? "null" : status), text
			system("rm -f \"" file "\"")
		}
		item = ""
	}
	/^@@advisor-exit / { status = $2; next }
	/^@@advisor / {
		flush()
		name = substr($0, 11)
		if (name ~ /^[A-Za-z0-9_.:-]+$/ && length(name) <= 64) {
			item = name; file = ENVIRON["DIR"] "/" ENVIRON["ID"] "@" item ENVIRON["SUFFIX"] ".txt"
			printf "" > file; lines = 0; text = ""; status = ""
		} else item = ""
		next
	}
	item != "" {
		print > file; lines++
		line = $0; gsub(/["\\]/, "'"'"'", line)
		if (lines <= 20) text = text (lines > 1 ? "\\n" : "") line
	}
	END { flush() }' "$work/items" > "$work/entries"
	echo "-- -" > "$work/hashes"  # never empty: awk tells its two files apart by it
	for f in "$dir/$id"@*"$suffix".txt; do
		[ -f "$f" ] && echo "`basename "$f"` `hash256 "$f"`" >> "$work/hashes"
	done
	awk 'NR == FNR { sha[$1] = $2; next }
	match($0, /, file: [^,]*, command:/) {
		f = substr($0, RSTART + 8, RLENGTH - 18)
		if ((f in sha) && sha[f] != "") sub(/}$/, ", sha256: " sha[f] "}")
	}
	{ print }' "$work/hashes" "$work/entries" >> "$manifest"
}


run uname-a uname-a.txt 'uname -a' 'uname -a'
run release release.txt 'cat /etc/os-release' 'cat /etc/os-release'
run ip-link ip-link.txt 'ip -o link' 'ip -o link'
run brctl-show brctl-show.txt 'brctl show' 'brctl show'
run sysctl-net sysctl-net.txt 'sysctl -a 2>/dev/null | grep '"'"'^net\\.'"'"'' 'sysctl -a 2>/dev/null | grep '"'"'^net\.'"'"''
run lspci-vv lspci-vv.txt 'lspci -vv' 'lspci -vv'
run_items ethtool-k 'for i in `ip -o link | awk -F'"'"': '"'"' '"'"'{print $2}'"'"' | sed '"'"'s/@.*//'"'"'`; do echo \"@@advisor $i\"; ethtool -k \"$i\" 2>&1; echo \"@@advisor-exit $?\"; done' 'for i in `ip -o link | awk -F'"'"': '"'"' '"'"'{print $2}'"'"' | sed '"'"'s/@.*//'"'"'`; do echo "@@advisor $i"; ethtool -k "$i" 2>&1; echo "@@advisor-exit $?"; done'
run_items ethtool-c 'for i in `ip -o link | awk -F'"'"': '"'"' '"'"'{print $2}'"'"' | sed '"'"'s/@.*//'"'"'`; do echo \"@@advisor $i\"; ethtool -c \"$i\" 2>&1; echo \"@@advisor-exit $?\"; done' 'for i in `ip -o link | awk -F'"'"': '"'"' '"'"'{print $2}'"'"' | sed '"'"'s/@.*//'"'"'`; do echo "@@advisor $i"; ethtool -c "$i" 2>&1; echo "@@advisor-exit $?"; done'
run_items ethtool-i 'for i in `ip -o link | awk -F'"'"': '"'"' '"'"'{print $2}'"'"' | sed '"'"'s/@.*//'"'"'`; do echo \"@@advisor $i\"; ethtool -i \"$i\" 2>&1; echo \"@@advisor-exit $?\"; done' 'for i in `ip -o link | awk -F'"'"': '"'"' '"'"'{print $2}'"'"' | sed '"'"'s/@.*//'"'"'`; do echo "@@advisor $i"; ethtool -i "$i" 2>&1; echo "@@advisor-exit $?"; done'
run_items ethtool 'for i in `ip -o link | awk -F'"'"': '"'"' '"'"'{print $2}'"'"' | sed '"'"'s/@.*//'"'"'`; do echo \"@@advisor $i\"; ethtool \"$i\" 2>&1; echo \"@@advisor-exit $?\"; done' 'for i in `ip -o link | awk -F'"'"': '"'"' '"'"'{print $2}'"'"' | sed '"'"'s/@.*//'"'"'`; do echo "@@advisor $i"; ethtool "$i" 2>&1; echo "@@advisor-exit $?"; done'
run_sampled proc-net-dev proc-net-dev.txt 'cat /proc/net/dev' 'cat /proc/net/dev'
run_items_sampled '' ethtool-stats 'for i in `ip -o link | awk -F'"'"': '"'"' '"'"'{print $2}'"'"' | sed '"'"'s/@.*//'"'"'`; do echo \"@@advisor $i\"; ethtool -S \"$i\" 2>&1; echo \"@@advisor-exit $?\"; done' 'for i in `ip -o link | awk -F'"'"': '"'"' '"'"'{print $2}'"'"' | sed '"'"'s/@.*//'"'"'`; do echo "@@advisor $i"; ethtool -S "$i" 2>&1; echo "@@advisor-exit $?"; done'
run virsh-list virsh-list.txt 'virsh list --all' 'virsh list --all'
run_items virsh-vcpupin 'virsh list --name | while read i; do [ -n \"$i\" ] || continue; echo \"@@advisor $i\"; virsh vcpupin \"$i\" < /dev/null 2>&1; echo \"@@advisor-exit $?\"; done' 'virsh list --name | while read i; do [ -n "$i" ] || continue; echo "@@advisor $i"; virsh vcpupin "$i" < /dev/null 2>&1; echo "@@advisor-exit $?"; done'
run_items virsh-domiflist 'virsh list --name | while read i; do [ -n \"$i\" ] || continue; echo \"@@advisor $i\"; virsh domiflist \"$i\" < /dev/null 2>&1; echo \"@@advisor-exit $?\"; done' 'virsh list --name | while read i; do [ -n "$i" ] || continue; echo "@@advisor $i"; virsh domiflist "$i" < /dev/null 2>&1; echo "@@advisor-exit $?"; done'
run xl-info xl-info.txt 'xl info' 'xl info' 'xm info' 'xm info' xm-info.txt xm-info
run xl-list xl-list.txt 'xl list' 'xl list' 'xm list' 'xm list' xm-list.txt xm-list
run xl-vcpu-list xl-vcpu-list.txt 'xl vcpu-list' 'xl vcpu-list' 'xm vcpu-list' 'xm vcpu-list' xm-vcpu-list.txt xm-vcpu-list
if [ $sample -gt 0 ] && [ -n "$sampler" ]; then
	wait $sampler
	sampler=done
	run_sampled 'proc-net-dev~2' 'proc-net-dev~2.txt' 'cat /proc/net/dev' 'cat /proc/net/dev'
	run_items_sampled ~2 ethtool-stats 'for i in `ip -o link | awk -F'"'"': '"'"' '"'"'{print $2}'"'"' | sed '"'"'s/@.*//'"'"'`; do echo \"@@advisor $i\"; ethtool -S \"$i\" 2>&1; echo \"@@advisor-exit $?\"; done' 'for i in `ip -o link | awk -F'"'"': '"'"' '"'"'{print $2}'"'"' | sed '"'"'s/@.*//'"'"'`; do echo "@@advisor $i"; ethtool -S "$i" 2>&1; echo "@@advisor-exit $?"; done'
fi

if [ "$out" = "-" ]; then  # the caller holds it in memory: a bounded size, or a reason
	(cd "$work/bundle" && tar cf - "$name") | gzip -c > "$work/bundle.tar.gz" || exit 1
	size=`wc -c < "$work/bundle.tar.gz"`
	if [ $size -gt 67108864 ]; then
		echo "the bundle is $size bytes compressed, more than the 67108864 sent as text: run the collector with ADVISOR_OUT=<folder> on the host and copy its file" >&2
		exit 3
	fi
	echo "@@advisor-bundle $name-$stamp.tar.gz"
	encode < "$work/bundle.tar.gz" || exit 1
	echo "@@advisor-end"
	exit 0
fi
(cd "$work/bundle" && tar cf - "$name") | gzip -c > "$out/$name-$stamp.tar.gz" || exit 1
echo "$out/$name-$stamp.tar.gz"
