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
from advisor.collect import allowlist
from advisor.errors import InputError

_HEADER = """#!/bin/sh
# advisor {version} collector for {platform} hosts.
# Runs read-only commands only and leaves <host>-<time>.tar.gz in the current
# folder (or in $ADVISOR_OUT) for `advisor review`. Nothing is changed on the host.
# ADVISOR_OUT=- writes the bundle to standard output as text instead (base64, else
# uuencode), between "@@advisor-bundle" and "@@advisor-end" lines, for a caller that
# reads it there (the Ansible collection). ADVISOR_HOST names the host in the bundle
# (default: uname -n).
PATH=$PATH:/usr/sbin:/usr/bin:/sbin:/bin:/opt/SUNWldm/bin:/usr/contrib/bin
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
work=${{TMPDIR:-/tmp}}/advisor.$$
dir=$work/bundle/$name  # beside, never among, the scratch files (err, items, host)
rm -rf "$work"
mkdir -p "$dir" || exit 1
trap 'rm -rf "$work"' 0
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
echo "commands:" >> "$manifest"
"""

_RUN = r"""# run ID FILE YAML-COMMAND COMMAND [FALLBACK YAML-FALLBACK FALLBACK-FILE FALLBACK-ID]:
# run it (or its fallback), keep the output and its manifest entry
run() {
	id=$1; file=$2; yaml_cmd=$3; cmd=$4
	sh -c "$cmd" > "$dir/$file" 2> "$work/err"
	status=$?
	if [ $status -ne 0 ] && [ -n "$5" ]; then
		rm -f "$dir/$file"
		cmd=$5; yaml_cmd=$6; file=$7; id=$8
		sh -c "$cmd" > "$dir/$file" 2> "$work/err"
		status=$?
	fi
	if [ $status -eq 0 ] && [ -s "$dir/$file" ]; then
		printf '%s\n' "  - {id: $id, file: $file, command: \"$yaml_cmd\", exit_status: $status, stderr: \"`yaml_text $work/err`\", sha256: `hash256 $dir/$file`}" >> "$manifest"
	else
		rm -f "$dir/$file"
		printf '%s\n' "  - {id: $id, file: null, command: \"$yaml_cmd\", exit_status: $status, stderr: \"`yaml_text $work/err`\"}" >> "$manifest"
	fi
}

# run_items ID YAML-COMMAND COMMAND [FALLBACK YAML-FALLBACK FALLBACK-ID]: a loop over
# interfaces whose "@@MARKER@@NAME" sections become ID@NAME.txt files
run_items() {
	id=$1; yaml_cmd=$2; cmd=$3
	sh -c "$cmd" > "$work/items" 2> "$work/err"
	status=$?
	if [ $status -ne 0 ] && [ -n "$4" ]; then
		cmd=$4; yaml_cmd=$5; id=$6
		sh -c "$cmd" > "$work/items" 2> "$work/err"
		status=$?
	fi
	if [ $status -ne 0 ]; then
		printf '%s\n' "  - {id: $id, file: null, command: \"$yaml_cmd\", exit_status: $status, stderr: \"`yaml_text $work/err`\"}" >> "$manifest"
		return
	fi
	ID=$id DIR=$dir YAML_CMD=$yaml_cmd awk '
	function flush() {
		if (item == "") return
		close(file)
		if (status == "0" && lines > 0)
			printf "  - {id: %s@%s, file: %s@%s.txt, command: \"%s\", exit_status: 0, stderr: \"\"}\n", ENVIRON["ID"], item, ENVIRON["ID"], item, ENVIRON["YAML_CMD"]
		else {
			printf "  - {id: %s@%s, file: null, command: \"%s\", exit_status: %s, stderr: \"%s\"}\n", ENVIRON["ID"], item, ENVIRON["YAML_CMD"], (status == "" ? "null" : status), text
			system("rm -f \"" file "\"")
		}
		item = ""
	}
	/^@@EXIT@@/ { status = $2; next }
	/^@@MARKER@@/ {
		flush()
		name = substr($0, @@SKIP@@)
		if (name ~ /^[A-Za-z0-9_.:-]+$/ && length(name) <= 64) {
			item = name; file = ENVIRON["DIR"] "/" ENVIRON["ID"] "@" item ".txt"
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
	for f in "$dir/$id"@*.txt; do
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
if [ "$out" = "-" ]; then
	echo "@@advisor-bundle $name-$stamp.tar.gz"
	(cd "$work/bundle" && tar cf - "$name") | gzip -c | encode || exit 1
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


def _yaml(text: str) -> str:
    """The inside of a YAML double-quoted string (JSON escapes are YAML escapes)."""
    return json.dumps(text)[1:-1]


def render(platform: str, privilege: str | None = None) -> str:
    by_name = allowlist.SCRIPT_PLATFORMS
    if platform not in by_name:
        known = ", ".join(sorted(by_name))
        raise InputError(f"--platform {platform}: this release writes collectors for {known}")
    run = (_RUN.replace("@@MARKER@@", allowlist.MARKER.strip() + " ").replace("@@EXIT@@", allowlist.EXIT_MARKER)
           .replace("@@SKIP@@", str(len(allowlist.MARKER) + 1)))
    lines = [_HEADER.format(version=__version__, platform=platform) + _ENCODE + run]
    for c in by_name[platform]:
        line = allowlist.wrapped(c, c.line, privilege)
        fallback = allowlist.wrapped(c, c.fallback, privilege) if c.fallback else None
        fallback_id = c.fallback_id or c.id
        if c.per_item:
            args = [c.id, _yaml(line), line] + ([fallback, _yaml(fallback), fallback_id] if fallback else [])
            lines.append("run_items " + " ".join(shlex.quote(a) for a in args))
            continue
        args = [c.id, allowlist.file_name(c), _yaml(line), line]
        if fallback:
            args += [fallback, _yaml(fallback), f"{fallback_id}.txt", fallback_id]
        lines.append("run " + " ".join(shlex.quote(a) for a in args))
    return "\n".join(lines) + "\n" + _FOOTER
