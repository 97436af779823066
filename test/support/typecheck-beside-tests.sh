#!/usr/bin/env bash
# The end of `pnpm test`, after the system tools and lint: the typecheck (one tsc, CPU-bound, about
# 20 s on a quiet 2-core machine) runs beside vitest's first tiers instead of before them. The run
# fails if either fails; a failed typecheck's errors are printed among the tests' output, and named
# again at the end.
set -u
pnpm typecheck &
typecheck=$!
vitest run "$@"
tests=$?
wait "$typecheck"
checked=$?
if [ "$checked" -ne 0 ]; then echo "pnpm test: the typecheck failed (its errors are above)" >&2; fi
if [ "$tests" -ne 0 ]; then exit "$tests"; fi
exit "$checked"
