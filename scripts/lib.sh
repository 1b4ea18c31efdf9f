# Shared helpers for the scripts in this folder (sourced, not run).
# KGAMES_CACHE: where the kernel source and builds are cached, outside the repository.
KGAMES_CACHE=${KGAMES_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kgames}
step() { printf '==> %s\n' "$*" >&2; }
note() { printf '    %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# build_module_copy KDIR DIR [MAKE ARGS...]: kgames.ko for the kernel build KDIR, built from a
# copy of Kbuild and src in DIR/tree (Kbuild builds in the source tree, where kgames.ko stays
# the test kernel's), no warning allowed; copied to DIR/kgames.ko. DIR is an absolute path.
build_module_copy() {
    local kdir=$1 dir=$2 o rc
    shift 2
    rm -rf "$dir/tree" && mkdir -p "$dir/tree"
    tar -c --exclude='*.o' --exclude='.*.cmd' --exclude='*.d' Kbuild src | tar -x -C "$dir/tree" || return 1
    o=$(make -s -C "$kdir" M="$dir/tree" LLVM=-19 KRUSTFLAGS=-Dwarnings "$@" modules 2>&1); rc=$?
    echo "$o"
    [ $rc = 0 ] && ! grep -qiE 'warning|error' <<<"$o" && cp "$dir/tree/kgames.ko" "$dir/kgames.ko"
}
