#!/usr/bin/env bash
# Runs a command against a private, unlocked GNOME Keyring (Secret Service),
# so keychain tests hit a real keychain without touching the user's own.
#
#   scripts/with-keyring.sh npx vitest run tests/core/vault
#
# A fresh D-Bus session bus (dbus-run-session) carries the Secret Service;
# XDG_DATA_HOME points at a new temporary folder so no keyring left by an
# earlier run (under another password) is found locked; the daemon creates and
# unlocks the "login" collection with a throwaway password read from stdin.
set -euo pipefail

if [ "$#" -eq 0 ]; then
  echo "usage: $0 COMMAND [ARGS...]" >&2
  exit 2
fi

# Elsewhere (macOS, Windows) the OS keychain is used directly, under the tests'
# own service name; without the tools, the command runs as is and the keychain
# tests fail under CI (they must not skip there) or skip with the reason.
if [ "$(uname -s)" != "Linux" ] || ! command -v dbus-run-session >/dev/null ||
  ! command -v gnome-keyring-daemon >/dev/null; then
  echo "with-keyring: no dbus-run-session/gnome-keyring-daemon here; running without a private keyring" >&2
  exec "$@"
fi

keyring_home="$(mktemp -d "${TMPDIR:-/tmp}/keyring-XXXXXX")"
cleanup() { rm -rf "$keyring_home"; }
trap cleanup EXIT

export KEYRING_HOME="$keyring_home"
dbus-run-session -- bash -c '
  set -euo pipefail
  export XDG_DATA_HOME="$KEYRING_HOME/data"
  export XDG_RUNTIME_DIR="$KEYRING_HOME/run"
  mkdir -p "$XDG_DATA_HOME" "$XDG_RUNTIME_DIR"
  chmod 700 "$XDG_RUNTIME_DIR"
  pw="$(head -c 24 /dev/urandom | base64)"
  # --unlock reads the password from stdin and creates the login keyring with it.
  eval "$(printf "%s" "$pw" | gnome-keyring-daemon --unlock --components=secrets)" >/dev/null
  unset pw
  export GNOME_KEYRING_CONTROL SSH_AUTH_SOCK 2>/dev/null || true
  exec "$@"
' with-keyring "$@"
