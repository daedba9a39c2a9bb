#!/bin/sh
# Print deb-src entries derived from this machine's own deb entries (for `apt-get source`, which
# the rebuild family needs): every enabled one-line `deb ...` entry as `deb-src ...`, and every
# deb822 stanza of type deb as the same stanza of type deb-src. The project names no mirror of its
# own, so a machine behind a local mirror gets that mirror's sources.
# Usage: scripts/deb_src_entries.sh > /etc/apt/sources.list.d/truepass-src.sources
set -eu
root="${APT_ROOT:-}"  # a copy of /etc/apt elsewhere (tests)
lists=""
for f in "$root"/etc/apt/sources.list "$root"/etc/apt/sources.list.d/*.list; do
  [ -f "$f" ] && lists="$lists $f"
done
if [ -n "$lists" ]; then
  # one-line entries, written as deb822 stanzas: deb [opts] URI SUITE COMPONENTS...
  # shellcheck disable=SC2086
  grep -h '^[[:space:]]*deb[[:space:]]' $lists | awk '{
    i = 2; opts = ""
    if ($2 ~ /^\[/) { while ($i !~ /\]$/) { opts = opts " " $i; i++ } opts = opts " " $i; i++ }
    uri = $i; suite = $(i + 1); comps = ""
    for (j = i + 2; j <= NF; j++) comps = comps (comps ? " " : "") $j
    print "Types: deb-src"; print "URIs: " uri; print "Suites: " suite
    if (comps) print "Components: " comps
    if (opts ~ /signed-by=/) { sub(/.*signed-by=/, "", opts); sub(/[] ].*/, "", opts); print "Signed-By: " opts }
    print ""
  }'
fi
for f in "$root"/etc/apt/sources.list.d/*.sources; do
  [ -f "$f" ] || continue
  case "$f" in */truepass-src.sources) continue ;; esac
  # deb822 stanzas (separated by blank lines) whose Types include deb, as deb-src
  awk 'BEGIN { RS = ""; ORS = "\n\n" }
    /(^|\n)Types:[^\n]*(^|[ \t])deb([ \t]|\n|$)/ && !/(^|\n)Enabled:[ \t]*no/ {
      out = ""; n = split($0, lines, "\n")
      for (k = 1; k <= n; k++) {
        if (lines[k] ~ /^#/) continue
        if (lines[k] ~ /^Types:/) lines[k] = "Types: deb-src"
        out = out lines[k] "\n"
      }
      printf "%s\n", out
    }' "$f"
done
