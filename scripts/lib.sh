# Shared helpers for the scripts in this folder (sourced, not run).
# KGAMES_CACHE: where the kernel source and builds are cached, outside the repository.
KGAMES_CACHE=${KGAMES_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kgames}
step() { printf '==> %s\n' "$*" >&2; }
note() { printf '    %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# The LLVM release of scripts/toolchain.env, and its tools' folder.
. "$(dirname "${BASH_SOURCE[0]}")/toolchain.env"
LLVM_BIN=/usr/lib/llvm-$LLVM_VERSION/bin

# module_tree DIR: a copy of Kbuild and src in DIR/tree, to build a module for another kernel
# (Kbuild builds in the source tree, where kgames.ko stays the test kernel's).
module_tree() {
    rm -rf "$1/tree" && mkdir -p "$1/tree" &&
        tar -c --exclude='*.o' --exclude='.*.cmd' --exclude='*.d' --exclude='*.ko' Kbuild src | tar -x -C "$1/tree"
}

# build_module KDIR SRC [MAKE ARGS...]: SRC/kgames.ko for the kernel build KDIR, warnings
# fatal and checked by kbuild_ko (exported symbols, vermagic). A kernel built with gcc (Debian's)
# gets its module from its own compilers in the trixie root (scripts/debian-root.sh: rustc
# 1.85.1, gcc-14); one built with LLVM (scripts/kernel-build.sh) from LLVM_VERSION's.
build_module() {
    local kdir=$1 src=$2 release
    shift 2
    release=$(cat "$kdir/include/config/kernel.release") || return 1
    if grep -q '^CONFIG_CC_IS_GCC=y' "$kdir/.config"; then
        kbuild_ko "$release" "$src/kgames.ko" bash "$(dirname "${BASH_SOURCE[0]}")/debian-root.sh" --run \
            make -s -C "$kdir" M="$src" CC=x86_64-linux-gnu-gcc-14 KERNELRELEASE="$release" KRUSTFLAGS=-Dwarnings "$@" modules
    else
        PATH=$LLVM_BIN:$PATH kbuild_ko "$release" "$src/kgames.ko" \
            make -s -C "$kdir" M="$src" LLVM=-"$LLVM_VERSION" KRUSTFLAGS=-Dwarnings "$@" modules
    fi
}

# build_module_copy KDIR DIR [MAKE ARGS...]: build_module from a copy of the sources in
# DIR/tree; the module is copied to DIR/kgames.ko. DIR is an absolute path.
build_module_copy() {
    local kdir=$1 dir=$2
    shift 2
    rm -f "$dir/kgames.ko"
    module_tree "$dir" && build_module "$kdir" "$dir/tree" "$@" && cp "$dir/tree/kgames.ko" "$dir/kgames.ko"
}

# debian_mirror: the machine's own Debian mirror, read from its apt sources (never written).
debian_mirror() {
    local uri
    uri=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
    [ -n "$uri" ] || uri=$(awk '$1=="deb" && $0 ~ /debian/ {for(i=2;i<=NF;i++) if ($i ~ /^(https?|file):/) {print $i; exit}}' /etc/apt/sources.list 2>/dev/null || true)
    [ -n "$uri" ] || die "cannot read the machine's Debian mirror from /etc/apt"
    echo "$uri"
}

# apt_private ARGS...: apt-get with a private configuration in the cache (suite
# trixie-backports of the machine's own mirror); the system's apt sources stay untouched.
# apt_private_cache ARGS...: the same for apt-cache. apt_private_update: refresh its lists once
# per run of a script (APT_PRIVATE_UPDATED guards it).
APT_D=$KGAMES_CACHE/apt
APT_A=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$APT_D/parts" -o "Dir::State::Lists=$APT_D/lists"
       -o "Dir::Cache::Archives=$APT_D/archives" -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
apt_private() { apt-get "${APT_A[@]}" "$@"; }
apt_private_cache() { apt-cache "${APT_A[@]}" "$@"; }
apt_private_update() {
    [ -n "${APT_PRIVATE_UPDATED:-}" ] && return 0
    # Lists fetched in the last 10 minutes (by an earlier script of the same make run) serve.
    if [ -n "$(find "$APT_D/lists/.kgames-updated" -mmin -10 2>/dev/null)" ]; then APT_PRIVATE_UPDATED=1; return 0; fi
    mkdir -p "$APT_D/parts" "$APT_D/lists/partial" "$APT_D/archives/partial"
    printf 'Types: deb\nURIs: %s\nSuites: trixie-backports\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' "$(debian_mirror)" > "$APT_D/parts/k.sources"
    step "apt update (private configuration, trixie-backports)"
    apt_private update -qq >&2 || die "apt update of trixie-backports failed (is the mirror reachable?)"
    touch "$APT_D/lists/.kgames-updated"
    APT_PRIVATE_UPDATED=1
}
# apt_private_fetch PKG=VERSION: the .deb's path in the cache, downloaded if missing.
apt_private_fetch() {
    local pkg=${1%%=*} ver=${1#*=} f
    f=$APT_D/archives/${pkg}_$(sed 's/:/%3a/' <<<"$ver")_*.deb
    # shellcheck disable=SC2086
    if ! ls $f >/dev/null 2>&1; then
        apt_private_update
        step "downloading $pkg=$ver"
        (cd "$APT_D/archives" && apt_private download "$pkg=$ver" >&2) || die "cannot download $pkg=$ver from trixie-backports"
    fi
    # shellcheck disable=SC2086
    ls $f | head -n 1
}

# kbuild_ko RELEASE KO MAKE-COMMAND...: runs the module build (warnings fatal), then checks what
# it made: a symbol that the kernel does not export is named in a message of its own, and KO's
# vermagic must name RELEASE. On any failure KO is removed, so no half-built module is left.
kbuild_ko() {
    local release=$1 ko=$2 o rc missing s vermagic
    shift 2
    rm -f "$ko"
    o=$("$@" 2>&1); rc=$?
    [ -z "$o" ] || echo "$o" >&2
    # modpost's two forms: "ERROR: modpost: M.ko: symbol 'X' undefined!" (7.3) and
    # 'ERROR: modpost: "X" [M.ko] undefined!' (older).
    missing=$(sed -n -e "s/^ERROR: modpost: [^:]*: symbol '\([^']*\)' undefined!\$/\1/p" \
                     -e 's/^ERROR: modpost: "\([^"]*\)" \[.*\] undefined!$/\1/p' <<<"$o")
    if [ -n "$missing" ]; then
        while IFS= read -r s; do
            printf 'error: kgames.ko needs the symbol %s, which Linux %s does not export (not in its Module.symvers)\n' "$s" "$release" >&2
        done <<<"$missing"
        rm -f "$ko"; return 1
    fi
    if [ $rc != 0 ]; then rm -f "$ko"; printf 'error: the build of kgames.ko for Linux %s failed (above)\n' "$release" >&2; return 1; fi
    if grep -qiE 'warning|error' <<<"$o"; then rm -f "$ko"; printf 'error: the build of kgames.ko for Linux %s gave warnings (above)\n' "$release" >&2; return 1; fi
    vermagic=$(modinfo -F vermagic "$ko" 2>/dev/null || true)
    if [ "${vermagic%% *}" != "$release" ]; then
        rm -f "$ko"; printf "error: kgames.ko's vermagic '%s' does not name Linux %s\n" "$vermagic" "$release" >&2; return 1
    fi
}

# install_or_compare MODE NEW SHIPPED LABEL: for the generators of shipped data files
# (reversi weights, chess network): prints both sha256 sums; with MODE --install copies NEW
# over SHIPPED, else fails unless they are byte-identical.
install_or_compare() {
    local mode=$1 new=$2 shipped=$3 label=$4
    sha256sum "$new" "$shipped"
    if [ "$mode" = --install ]; then
        cp "$new" "$shipped"
        echo "installed $new as $shipped"
    elif cmp -s "$new" "$shipped"; then
        echo "$label: identical to the shipped $shipped"
    else
        echo "$label: DIFFERS from the shipped $shipped" >&2
        return 1
    fi
}
