# Sourced, not run: a PRIVATE apt configuration in a directory of the caller's, so that a script can
# reach what the machine's own apt sources leave out (source packages, Debian's non-free component)
# without editing /etc/apt or the machine's lists.
#   . scripts/apt_private.sh
#   apt_private DIR TYPE COMPONENTS       e.g. apt_private "$work/apt" deb-src main
#                                               apt_private "$work/apt" deb "main contrib non-free"
# Writes DIR/sources.list.d/cartex.sources: one stanza per enabled Debian source of this machine
# (/etc/apt/sources.list{,.d/*.list,.d/*.sources} whose suite is this release's), with the TYPE and
# COMPONENTS asked for, and sets the array APT_PRIVATE to the apt-get options that use it: its own
# sources, lists and archive cache. dpkg's status stays the machine's unless the caller also passes
# -o Dir::State::status=... (a download-only use does: its own empty status). Signatures are checked
# against the machine's keyrings as for any apt download.
apt_private() {
  local dir=$1 type=$2 components=$3 codename
  codename=$(. /etc/os-release && echo "$VERSION_CODENAME")
  mkdir -p "$dir/lists/partial" "$dir/archives/partial" "$dir/sources.list.d"
  : >"$dir/sources.list"
  /usr/bin/python3 - "$codename" "$dir/sources.list.d/cartex.sources" "$type" "$components" <<'EOF'
import glob, re, sys
codename, out, kind, components = sys.argv[1:5]
stanzas = []
for path in ["/etc/apt/sources.list"] + sorted(glob.glob("/etc/apt/sources.list.d/*.list")):
    try:
        lines = open(path).read().splitlines()
    except FileNotFoundError:
        continue
    for line in lines:
        m = re.match(r"^\s*deb\s+(\[([^\]]*)\]\s+)?(\S+)\s+(\S+)\s+(.*)$", line.split("#")[0])
        if m:
            options = dict(o.split("=", 1) for o in (m.group(2) or "").split() if "=" in o)
            st = {"URIs": m.group(3), "Suites": m.group(4)}
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
            stanzas.append({k: st[k] for k in ("URIs", "Suites", "Signed-By") if k in st})
seen = set()
with open(out, "w") as f:
    for st in stanzas:
        suites = [s for s in st.get("Suites", "").split() if s == codename or s.startswith(codename + "-")]
        key = (st.get("URIs"), " ".join(suites))
        if suites and "URIs" in st and key not in seen:
            seen.add(key)
            f.write(f"Types: {kind}\nURIs: {st['URIs']}\nSuites: {' '.join(suites)}\nComponents: {components}\n"
                    + (f"Signed-By: {st['Signed-By']}\n" if "Signed-By" in st else "") + "\n")
EOF
  if ! grep -q "^Types: $type" "$dir/sources.list.d/cartex.sources"; then
    echo "apt_private: no enabled Debian '$codename' apt source in /etc/apt/sources.list{,.d}" >&2
    return 1
  fi
  APT_PRIVATE=(
    -o Dir::Etc::SourceList="$dir/sources.list"
    -o Dir::Etc::SourceParts="$dir/sources.list.d"
    -o Dir::State::Lists="$dir/lists"
    -o Dir::Cache="$dir" -o Dir::Cache::Archives="$dir/archives"
    -o Dir::Cache::pkgcache="" -o Dir::Cache::srcpkgcache=""
    # apt's download sandbox user cannot enter a private directory under root's home.
    -o APT::Sandbox::User="$(id -un)"
  )
}
