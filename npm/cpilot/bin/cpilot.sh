#!/bin/sh
# Hook calls from shared settings files start here: this platform's cpilot binary with no
# Node start (bin/cpilot.cjs costs ~0.1-0.4 s a call, cpilot's hook ~10 ms). npm installs
# only this machine's @cpilot/<platform> optional dependency, so a glob finds it without
# asking uname. Anything unusual (CPILOT_BINARY aside) goes to the Node launcher, which
# knows every case: no binary (omitted optional deps), or two it cannot tell apart.
if [ -n "$CPILOT_BINARY" ]; then exec "$CPILOT_BINARY" "$@"; fi
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
# pnpm links node_modules/cpilot to its store, where @cpilot/* sit beside the real folder.
modules=$(cd -P -- "$here/../.." 2>/dev/null && pwd -P)
# One binary for this machine: npm installed only its own package. bun ignores the libc
# field and installs linux-<cpu> and linux-<cpu>-musl both: then the C library's loader on
# disk says which one runs here (no fork, so no Node either).
pick() {
  found=
  for binary in "$modules"/@cpilot/*/cpilot "$here"/../node_modules/@cpilot/*/cpilot; do
    [ -f "$binary" ] && [ -x "$binary" ] || continue
    case $1:${binary%/cpilot} in
      libc:*-musl) [ -z "$glibc" ] || continue ;;
      libc:*/linux-*) [ -n "$glibc" ] || continue ;;
    esac
    [ -z "$found" ] || return 1
    found=$binary
  done
}
if ! pick any; then
  glibc=
  for loader in /lib64/ld-linux-*.so.* /lib/ld-linux-*.so.*; do
    if [ -e "$loader" ]; then glibc=1 && break; fi
  done
  pick libc || exec node "$here/cpilot.cjs" "$@"
fi
[ -z "$found" ] || exec "$found" "$@"
exec node "$here/cpilot.cjs" "$@"
