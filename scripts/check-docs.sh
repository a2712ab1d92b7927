#!/usr/bin/env bash
# Checks the shape of the front-door documents:
#   - README.md has at most 150 lines;
#   - no paragraph of README.md (a run of non-blank lines outside ``` or ~~~ code fences) is longer
#     than 8 lines;
#   - no line of ARCHITECTURE.md is longer than 400 characters;
#   - every relative Markdown link in README.md, ARCHITECTURE.md, CONTRIBUTING.md and docs/*.md
#     names a file or folder that exists (anchors after `#` are not checked).
# Prints each offence as FILE:LINE: what, and exits 1 if there is any (0 otherwise).
# Usage: scripts/check-docs.sh   (from anywhere; no dependencies beyond bash and coreutils)
set -uo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C.UTF-8   # ${#line} counts characters, not bytes

max_readme_lines=150
max_paragraph=8
max_arch_line=400
bad=0

fail() {
    echo "$1" >&2
    bad=1
}

# README.md: length and paragraphs
if [ ! -f README.md ]; then
    fail "README.md: missing"
else
    n=$(wc -l < README.md)
    if [ "$n" -gt "$max_readme_lines" ]; then
        fail "README.md:$n: $n lines, over the limit of $max_readme_lines"
    fi
    lineno=0
    fence=""
    run=0
    start=0
    while IFS= read -r line || [ -n "$line" ]; do
        lineno=$((lineno + 1))
        trimmed="${line#"${line%%[![:space:]]*}"}"
        if [ -z "$fence" ] && { [[ "$trimmed" == '```'* ]] || [[ "$trimmed" == '~~~'* ]]; }; then
            # a fence opens: the paragraph before it ends
            if [ "$run" -gt "$max_paragraph" ]; then
                fail "README.md:$start: paragraph of $run lines (lines $start-$((lineno - 1))), over the limit of $max_paragraph"
            fi
            run=0
            fence="${trimmed:0:3}"
            continue
        fi
        if [ -n "$fence" ]; then
            if [[ "$trimmed" == "$fence"* ]]; then
                fence=""
            fi
            continue
        fi
        if [ -z "$trimmed" ]; then
            if [ "$run" -gt "$max_paragraph" ]; then
                fail "README.md:$start: paragraph of $run lines (lines $start-$((lineno - 1))), over the limit of $max_paragraph"
            fi
            run=0
        else
            if [ "$run" -eq 0 ]; then
                start=$lineno
            fi
            run=$((run + 1))
        fi
    done < README.md
    if [ "$run" -gt "$max_paragraph" ]; then
        fail "README.md:$start: paragraph of $run lines (lines $start-$lineno), over the limit of $max_paragraph"
    fi
    if [ -n "$fence" ]; then
        fail "README.md:$lineno: a code fence is not closed"
    fi
fi

# ARCHITECTURE.md: line length
if [ ! -f ARCHITECTURE.md ]; then
    fail "ARCHITECTURE.md: missing"
else
    lineno=0
    while IFS= read -r line || [ -n "$line" ]; do
        lineno=$((lineno + 1))
        if [ "${#line}" -gt "$max_arch_line" ]; then
            fail "ARCHITECTURE.md:$lineno: line of ${#line} characters, over the limit of $max_arch_line"
        fi
    done < ARCHITECTURE.md
fi

# relative links: [text](path) and [text](path#anchor), outside code fences
for f in README.md ARCHITECTURE.md CONTRIBUTING.md docs/*.md; do
    [ -f "$f" ] || continue
    dir=$(dirname "$f")
    lineno=0
    fence=""
    while IFS= read -r line || [ -n "$line" ]; do
        lineno=$((lineno + 1))
        trimmed="${line#"${line%%[![:space:]]*}"}"
        if [ -z "$fence" ] && { [[ "$trimmed" == '```'* ]] || [[ "$trimmed" == '~~~'* ]]; }; then
            fence="${trimmed:0:3}"
            continue
        fi
        if [ -n "$fence" ]; then
            [[ "$trimmed" == "$fence"* ]] && fence=""
            continue
        fi
        rest="$line"
        while [[ "$rest" =~ \]\(([^\)\ ]+)\) ]]; do
            target="${BASH_REMATCH[1]}"
            rest="${rest#*"${BASH_REMATCH[0]}"}"
            case "$target" in
                http://* | https://* | mailto:* | \#*) continue ;;
            esac
            path="${target%%#*}"
            [ -z "$path" ] && continue
            if [ ! -e "$dir/$path" ]; then
                fail "$f:$lineno: link to $target: no such file or folder ($dir/$path)"
            fi
        done
    done < "$f"
done

if [ "$bad" -ne 0 ]; then
    echo "check-docs: FAILED" >&2
    exit 1
fi
echo "check-docs: README.md $(wc -l < README.md) lines (limit $max_readme_lines), paragraphs within $max_paragraph lines; ARCHITECTURE.md lines within $max_arch_line characters; relative links resolve"
