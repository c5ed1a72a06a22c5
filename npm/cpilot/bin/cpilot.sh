#!/bin/sh
# Hook calls from shared settings files start here: this platform's cpilot binary with no
# Node start (bin/cpilot.cjs costs ~0.1-0.4 s a call, cpilot's hook ~10 ms). npm installs
# only this machine's @cpilot/<platform> optional dependency, so a glob finds it without
# asking uname. Anything unusual (CPILOT_BINARY aside) goes to the Node launcher, which
# knows every case: no binary (omitted optional deps), two (an npm that ignored libc).
if [ -n "$CPILOT_BINARY" ]; then exec "$CPILOT_BINARY" "$@"; fi
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
# pnpm links node_modules/cpilot to its store, where @cpilot/* sit beside the real folder.
modules=$(cd -P -- "$here/../.." 2>/dev/null && pwd -P)
found=
for binary in "$modules"/@cpilot/*/cpilot "$here"/../node_modules/@cpilot/*/cpilot; do
  [ -f "$binary" ] && [ -x "$binary" ] || continue
  [ -z "$found" ] || exec node "$here/cpilot.cjs" "$@"
  found=$binary
done
[ -z "$found" ] || exec "$found" "$@"
exec node "$here/cpilot.cjs" "$@"
