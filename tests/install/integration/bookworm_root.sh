# Sourced by the tests that need a Debian 12 root (install_integration.sh,
# tests/packaging/deb_test.sh): the mirror to make it from, and one
# debootstrapped base root per build, kept so that the suite runs
# debootstrap once however many tests copy it.

# The Debian mirror serving bookworm: ROCMDOC_IT_MIRROR, else one the host's
# apt names, else deb.debian.org. Prints it, or nothing when none answers.
find_bookworm_mirror() {
  local candidate
  for candidate in $(
    [ -n "${ROCMDOC_IT_MIRROR:-}" ] && echo "$ROCMDOC_IT_MIRROR"
    cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^https?:/) { print $i; break } }'
    cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '$1 == "URIs:" { for (i = 2; i <= NF; i++) print $i }'
    echo http://deb.debian.org/debian
  ); do
    if curl -fsI --max-time 10 "${candidate%/}/dists/bookworm/Release" >/dev/null 2>&1; then
      echo "${candidate%/}"
      return 0
    fi
  done
}

# bookworm_base CACHE MIRROR LOG: CACHE/root, a minbase bookworm root with
# ca-certificates, made by debootstrap the first time (under a lock, so tests
# run in parallel wait for one debootstrap rather than each running one).
# Copy it before changing anything in it. Returns 1 when debootstrap failed
# (its output is in LOG).
bookworm_base() {
  local cache=$1 mirror=$2 log=$3 lock rc=0
  mkdir -p "$cache"
  exec {lock}>"$cache/lock"
  flock "$lock"
  if [ ! -e "$cache/root.done" ]; then
    rm -rf --one-file-system "$cache/root"
    if debootstrap --variant=minbase --include=ca-certificates bookworm "$cache/root" "$mirror" >"$log" 2>&1; then
      touch "$cache/root.done"
    else
      rc=1
    fi
  fi
  flock -u "$lock"
  exec {lock}>&-
  return $rc
}
