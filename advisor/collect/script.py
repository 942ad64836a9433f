"""`advisor collector-script`: the live command table as a shell script, for
hosts advisor cannot reach. It runs the same read-only commands and leaves a
`.tar.gz` capture bundle with the same manifest, ready for `advisor review`.

The script is Bourne-shell compatible (Solaris 10 /bin/sh, HP-UX sh, dash):
backquotes, no `$(...)`, no `local`, no bash. The commands and their YAML
spellings are fixed when the script is generated.
"""

from __future__ import annotations

import json
import shlex

from advisor import __version__
from advisor import platform_registry as platforms
from advisor.collect import allowlist, sampling
from advisor.collect.limits import COMMAND_TIMEOUT_S, MAX_OUTPUT_BYTES, MAX_PER_ITEM_BYTES
from advisor.errors import InputError
from advisor.platform_spec import SECOND

_HEADER = """#!/bin/sh
# advisor {version} collector for {platform} hosts.
# Runs read-only commands only and leaves <host>-<time>.tar.gz in the current
# folder (or in $ADVISOR_OUT) for `advisor review`. Nothing is changed on the host.
# ADVISOR_OUT=- writes the bundle to standard output as text instead (base64, else
# uuencode), between "@@advisor-bundle" and "@@advisor-end" lines, for a caller that
# reads it there (the Ansible collection). ADVISOR_HOST names the host in the bundle
# (default: uname -n). ADVISOR_COMMAND_TIMEOUT stops a command after that many seconds
# (default {timeout}); the bundle keeps what the others printed. ADVISOR_DEADLINE bounds
# the whole collection the same way (seconds; default none). ADVISOR_SAMPLE reads the
# counters ({sampled}) again that many seconds after the first time, for rates
# (whole seconds, 1 to {most}; default 0: once), as advisor collect's --sample.
PATH=$PATH:/usr/sbin:/usr/bin:/sbin:/bin{path}
export PATH
umask 077
LC_ALL=C
export LC_ALL

host=${{ADVISOR_HOST:-`uname -n`}}
case $host in
''|*[!A-Za-z0-9._-]*) name=host ;;  # the folder and file name; the manifest keeps the name as given
*) name=$host ;;
esac
stamp=`date -u +%Y%m%dT%H%M%SZ`
out=${{ADVISOR_OUT:-.}}
limit=${{ADVISOR_COMMAND_TIMEOUT:-{timeout}}}  # seconds a command may take, as advisor collect's --command-timeout
case $limit in ''|*[!0-9]*|0|0*) echo "ADVISOR_COMMAND_TIMEOUT=$limit: give whole seconds, at least 1" >&2; exit 2 ;; esac
deadline=${{ADVISOR_DEADLINE:-0}}  # seconds the whole collection may take (0: no limit)
case $deadline in ''|*[!0-9]*) echo "ADVISOR_DEADLINE=$deadline: give whole seconds" >&2; exit 2 ;; esac
sample=${{ADVISOR_SAMPLE:-0}}  # seconds between the two readings of the counters (0: read once)
case $sample in ''|*[!0-9]*|0?*) echo "ADVISOR_SAMPLE=$sample: give whole seconds, 1 to {most} (0: once)" >&2; exit 2 ;; esac
if [ $sample -gt {most} ]; then echo "ADVISOR_SAMPLE=$sample: give whole seconds, 1 to {most} (0: once)" >&2; exit 2; fi
sampler=  # the sleep the second reading waits for, started with the first
taken=  # the taken_at of a sampled command's manifest entry
suffix=  # ~2 while a per-interface loop is read the second time
work=${{TMPDIR:-/tmp}}/advisor.$$
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
yaml_text() {{
	head -20 "$1" | tr -d '\\000-\\010\\013-\\037' | sed -e 's/\\\\/\\\\\\\\/g' -e 's/"/\\\\"/g' |
		awk 'BEGIN {{ ORS = "" }} {{ if (NR > 1) print "\\\\n"; print }}'
}}

# hash256 FILE: its sha256, when the host has a tool for it
hash256() {{
	if [ -x /usr/bin/digest ]; then /usr/bin/digest -a sha256 "$1"
	elif [ -x /usr/bin/sha256sum ]; then /usr/bin/sha256sum "$1" | awk '{{print $1}}'
	elif [ -x /usr/bin/openssl ]; then /usr/bin/openssl dgst -sha256 "$1" | awk '{{print $NF}}'
	fi
}}

echo "format: advisor-capture/1" > "$manifest"
printf '%s\\n' "$host" > "$work/host"
printf '%s\\n' "host: \\"`yaml_text "$work/host"`\\"" >> "$manifest"
echo "collected_at: \\"`date -u +%Y-%m-%dT%H:%M:%SZ`\\"" >> "$manifest"
if [ $sample -gt 0 ]; then echo "sample: \\"${{sample}}s\\"" >> "$manifest"; fi
echo "commands:" >> "$manifest"
"""

_RUN = r"""# bounded FILE MAX COMMAND: run it, its output into FILE and its errors into $work/err.
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
	bounded "$dir/$file" @@MAX_OUTPUT@@ "$cmd"
	if [ "$status" != 0 ] && [ "$status" != null ] && [ -n "$5" ]; then
		rm -f "$dir/$file"
		cmd=$5; yaml_cmd=$6; file=$7; id=$8
		bounded "$dir/$file" @@MAX_OUTPUT@@ "$cmd"
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
# interfaces whose "@@MARKER@@NAME" sections become ID@NAME$suffix.txt files
run_items() {
	id=$1; yaml_cmd=$2; cmd=$3
	bounded "$work/items" @@MAX_ITEMS@@ "$cmd"
	if [ "$status" != 0 ] && [ "$status" != null ] && [ -n "$4" ]; then
		cmd=$4; yaml_cmd=$5; id=$6
		bounded "$work/items" @@MAX_ITEMS@@ "$cmd"
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
	/^@@EXIT@@/ { status = $2; next }
	/^@@MARKER@@/ {
		flush()
		name = substr($0, @@SKIP@@)
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

"""

_FOOTER = """
if [ "$out" = "-" ]; then  # the caller holds it in memory: a bounded size, or a reason
	(cd "$work/bundle" && tar cf - "$name") | gzip -c > "$work/bundle.tar.gz" || exit 1
	size=`wc -c < "$work/bundle.tar.gz"`
	if [ $size -gt @@MAX_SENT@@ ]; then
		echo "the bundle is $size bytes compressed, more than the @@MAX_SENT@@ sent as text: run the collector with ADVISOR_OUT=<folder> on the host and copy its file" >&2
		exit 3
	fi
	echo "@@advisor-bundle $name-$stamp.tar.gz"
	encode < "$work/bundle.tar.gz" || exit 1
	echo "@@advisor-end"
	exit 0
fi
(cd "$work/bundle" && tar cf - "$name") | gzip -c > "$out/$name-$stamp.tar.gz" || exit 1
echo "$out/$name-$stamp.tar.gz"
"""

_ENCODE = r"""# encode: standard input as text, after a line naming the encoding
encode() {
	if (base64 </dev/null) >/dev/null 2>&1; then echo "@@advisor-encoding base64"; base64
	elif (openssl base64 </dev/null) >/dev/null 2>&1; then echo "@@advisor-encoding base64"; openssl base64
	else echo "@@advisor-encoding uuencode"; uuencode bundle
	fi
}

"""


MAX_SENT_BYTES = 64 << 20  # a bundle printed as text (ADVISOR_OUT=-): a large T5's is a few tens of MiB


def _yaml(text: str) -> str:
    """The inside of a YAML double-quoted string (JSON escapes are YAML escapes)."""
    return json.dumps(text)[1:-1]


def _shown(c: allowlist.Command) -> str:
    """A sampled command as the script's header names it: a loop over interfaces by its output's command."""
    found = platforms.known(c.id) if c.per_item else None
    return f"{found[0].output.line} per interface" if found is not None else c.line


def render(platform: str, privilege: str | None = None) -> str:
    by_name = platforms.script_platforms()
    if platform not in by_name:
        known = ", ".join(sorted(by_name))
        raise InputError(f"--platform {platform}: this release writes collectors for {known}")
    run = (_RUN.replace("@@MARKER@@", allowlist.MARKER.strip() + " ").replace("@@EXIT@@", allowlist.EXIT_MARKER)
           .replace("@@SKIP@@", str(len(allowlist.MARKER) + 1)).replace("@@MAX_OUTPUT@@", str(MAX_OUTPUT_BYTES))
           .replace("@@MAX_ITEMS@@", str(MAX_PER_ITEM_BYTES)))
    commands = by_name[platform]
    counters = [c for c in commands if c.sampled]
    family = platforms.family_of(platforms.pack(platform))
    path = "".join(f":{folder}" for folder in (family.path if family else ()))  # where the family's tools may be
    lines = [_HEADER.format(version=__version__, platform=platform, timeout=COMMAND_TIMEOUT_S, most=sampling.MOST_S,
                            sampled=", ".join(_shown(c) for c in counters) or "none on this platform", path=path)
             + _ENCODE + run]
    second: list[str] = []
    for c in commands:
        line = allowlist.wrapped(c, c.line, privilege)
        fallback = allowlist.wrapped(c, c.fallback, privilege) if c.fallback else None
        fallback_id = c.fallback_id or c.id
        if c.per_item:
            args = [c.id, _yaml(line), line] + ([fallback, _yaml(fallback), fallback_id] if fallback else [])
            if c in counters:  # a loop over interfaces read twice: ID@NAME.txt, then ID@NAME~2.txt
                lines.append("run_items_sampled '' " + " ".join(shlex.quote(a) for a in args))
                second.append(f"\trun_items_sampled {SECOND} " + " ".join(shlex.quote(a) for a in args))
            else:
                lines.append("run_items " + " ".join(shlex.quote(a) for a in args))
            continue
        args = [c.id, allowlist.file_name(c), _yaml(line), line]
        if fallback:
            args += [fallback, _yaml(fallback), f"{fallback_id}.txt", fallback_id]
        lines.append(("run_sampled " if c in counters else "run ") + " ".join(shlex.quote(a) for a in args))
        if c in counters:
            again = [c.id + SECOND, f"{c.id}{SECOND}.txt", _yaml(line), line]
            if fallback:
                again += [fallback, _yaml(fallback), f"{fallback_id}{SECOND}.txt", fallback_id + SECOND]
            second.append("\trun_sampled " + " ".join(shlex.quote(a) for a in again))
    if second:  # the counters again, $sample seconds after they were first read
        lines += ['if [ $sample -gt 0 ] && [ -n "$sampler" ]; then', "\twait $sampler", "\tsampler=done", *second, "fi"]
    return "\n".join(lines) + "\n" + _FOOTER.replace("@@MAX_SENT@@", str(MAX_SENT_BYTES))
