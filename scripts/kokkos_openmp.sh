#!/usr/bin/env bash
# Builds Kokkos 3.4.01 with the OpenMP and Serial backends, once, into a cache outside the clone, so
# that scripts/test_openmp.sh can run cartex's tests with more than one thread per rank.
# Usage: scripts/kokkos_openmp.sh     prints the Kokkos install prefix (for -DKokkos_ROOT) on stdout
#
# What it does, step by step (progress goes to stderr):
#   1. Nothing, if the cache (${XDG_CACHE_HOME:-~/.cache}/cartex/kokkos-3.4.01-openmp) is complete.
#   2. Downloads the source package `trilinos` (the version of the installed libtrilinos-kokkos-dev;
#      it contains Kokkos 3.4.01 in packages/kokkos) with `apt-get source --download-only`, through a
#      PRIVATE apt configuration under ~/.cache/cartex/apt: its own sources list (a deb-src line for
#      every enabled Debian source of this machine, /etc/apt/sources.list{,.d/*.list,.d/*.sources}),
#      its own lists, state and cache directories. The machine's apt lists and state are not touched.
#      The archive's signature is checked against the machine's keyrings as for any apt download.
#   3. Extracts only packages/kokkos from the source archive (a tar wildcard; about 4 s).
#   4. Configures, builds and installs Kokkos (Release, C++17, OpenMP + Serial; about 2-3 minutes on
#      2 cores) and marks the cache complete. The downloaded archives and the build tree are deleted.
set -euo pipefail

version=3.4.01
cache=${XDG_CACHE_HOME:-$HOME/.cache}/cartex
prefix=$cache/kokkos-$version-openmp
stamp=$prefix/cartex-kokkos-complete
if [ -f "$stamp" ]; then echo "$prefix"; exit 0; fi

say() { echo "kokkos_openmp.sh: $*" >&2; }
work=$cache/kokkos-$version-work
rm -rf "$work" "$prefix"
mkdir -p "$work/apt/lists/partial" "$work/apt/archives/partial" "$work/apt/sources.list.d"
: >"$work/apt/sources.list"
: >"$work/apt/status"

# deb-src entries for this machine's enabled Debian sources (those whose suite is this release's).
codename=$(. /etc/os-release && echo "$VERSION_CODENAME")
/usr/bin/python3 - "$codename" "$work/apt/sources.list.d/cartex-src.sources" <<'EOF'
import glob, re, sys
codename, out = sys.argv[1], sys.argv[2]
stanzas = []
one_line = ["/etc/apt/sources.list"] + sorted(glob.glob("/etc/apt/sources.list.d/*.list"))
for path in one_line:
    try:
        lines = open(path).read().splitlines()
    except FileNotFoundError:
        continue
    for line in lines:
        m = re.match(r"^\s*deb\s+(\[([^\]]*)\]\s+)?(\S+)\s+(\S+)\s+(.*)$", line.split("#")[0])
        if m:
            options = dict(o.split("=", 1) for o in (m.group(2) or "").split() if "=" in o)
            st = {"URIs": m.group(3), "Suites": m.group(4), "Components": m.group(5).strip()}
            if "signed-by" in options:
                st["Signed-By"] = options["signed-by"]
            stanzas.append(st)
for path in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")):
    for block in re.split(r"\n\s*\n", open(path).read()):
        st = {}
        for line in block.splitlines():
            if line.startswith("#") or ":" not in line:
                continue
            key, value = line.split(":", 1)
            st[key.strip()] = value.strip()
        if "deb" in st.get("Types", "").split() and st.get("Enabled", "yes") != "no":
            stanzas.append({k: st[k] for k in ("URIs", "Suites", "Components", "Signed-By") if k in st})
with open(out, "w") as f:
    for st in stanzas:
        suites = [s for s in st.get("Suites", "").split() if s == codename or s.startswith(codename + "-")]
        if suites and "URIs" in st and "Components" in st:
            f.write("Types: deb-src\n" + "".join(f"{k}: {' '.join(suites) if k == 'Suites' else v}\n"
                                                 for k, v in st.items()) + "\n")
EOF
if ! grep -q '^Types: deb-src' "$work/apt/sources.list.d/cartex-src.sources"; then
  say "no enabled Debian '$codename' apt source found in /etc/apt/sources.list{,.d}"; exit 1
fi

apt_private=(
  -o Dir::Etc::SourceList="$work/apt/sources.list"
  -o Dir::Etc::SourceParts="$work/apt/sources.list.d"
  -o Dir::State="$work/apt" -o Dir::State::Lists="$work/apt/lists" -o Dir::State::status="$work/apt/status"
  -o Dir::Cache="$work/apt" -o Dir::Cache::Archives="$work/apt/archives"
  -o Dir::Cache::pkgcache="" -o Dir::Cache::srcpkgcache=""
  # apt's download sandbox user cannot enter a private directory under root's home.
  -o APT::Sandbox::User="$(id -un)"
)
trilinos=$(dpkg-query -W -f='${Version}' libtrilinos-kokkos-dev 2>/dev/null || true)
say "downloading the Debian source package trilinos${trilinos:+ $trilinos} (private apt lists in $work/apt)"
apt-get "${apt_private[@]}" -qq update >&2
(cd "$work" && apt-get "${apt_private[@]}" -qq source --download-only "trilinos${trilinos:+=$trilinos}" >&2)

say "extracting packages/kokkos"
orig=$(ls "$work"/trilinos_*.orig.tar.*)
mkdir -p "$work/src"
tar -xf "$orig" -C "$work/src" --strip-components=1 --wildcards '*/packages/kokkos/*'
kokkos_src=$work/src/packages/kokkos
grep -q "Kokkos_VERSION_MAJOR 3" "$kokkos_src/CMakeLists.txt" 2>/dev/null \
  || grep -q "KOKKOS_VERSION_MAJOR 3" "$kokkos_src/CMakeLists.txt" \
  || { say "$orig does not hold Kokkos 3.x in packages/kokkos"; exit 1; }

say "building Kokkos $version (OpenMP + Serial) into $prefix"
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake -S "$kokkos_src" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_STANDARD=17 \
  -DCMAKE_INSTALL_PREFIX="$prefix" -DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_SERIAL=ON \
  -DKokkos_ENABLE_TESTS=OFF -DBUILD_SHARED_LIBS=OFF -DCMAKE_POSITION_INDEPENDENT_CODE=ON "${launcher[@]}" >&2
cmake --build "$work/build" --parallel "$(nproc)" >&2
cmake --install "$work/build" >&2
echo "Kokkos $version OpenMP+Serial from Debian trilinos ${trilinos:-source}" >"$stamp"
rm -rf "$work"
say "done"
echo "$prefix"
