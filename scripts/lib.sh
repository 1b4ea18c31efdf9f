# Shared helpers for the scripts in this folder (sourced, not run).
# KGAMES_CACHE: where the kernel source and builds are cached, outside the repository.
KGAMES_CACHE=${KGAMES_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kgames}
step() { printf '==> %s\n' "$*" >&2; }
note() { printf '    %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
