# Sourced by the hack/ scripts that install a Debian package a test needs (hack/chromium.sh,
# hack/postgres.sh, hack/redis.sh, hack/wrk.sh). They define log and die first.
#
# apt_install WHAT PACKAGE... installs the packages with apt-get (after apt-get update), as root or
# through sudo; WHAT names the need in the error messages.
apt_install() {
  local what="$1"
  shift
  command -v apt-get >/dev/null 2>&1 ||
    die "$what is missing and there is no apt-get here; install it with your package manager"
  local sudo=()
  if [[ "$(id -u)" != 0 ]]; then
    command -v sudo >/dev/null 2>&1 || die "installing $what needs root (or sudo): run as root: apt-get update && apt-get install -y $*"
    sudo=(sudo)
  fi
  log "installing Debian's $* (apt-get update; apt-get install)"
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -q >&2
  "${sudo[@]}" apt-get install -y -q --no-install-recommends "$@" >&2
}
