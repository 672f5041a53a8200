# Sourced by scripts/run, scripts/test and .ci/run: makes .venv with everything the
# project needs. Safe to run again: it reinstalls only when pyproject.toml changed.
# SCOREKEEPER_VENV=DIR uses the virtual environment DIR as it is instead.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

pick_python() {
    # .python-version pins 3.13.0 for pyenv; any Python 3.12+ will do.
    local candidate
    for candidate in python3 python3.13 python3.12; do
        if command -v "$candidate" >/dev/null 2>&1 &&
            "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then
            echo "$candidate"
            return
        fi
    done
    echo "Python 3.12 or newer is needed (Django 6). Install it, e.g. 'pyenv install 3.13.0'." >&2
    exit 1
}

if [ -n "${SCOREKEEPER_VENV:-}" ]; then
    # A virtual environment kept elsewhere, used as it is (nothing is installed into it):
    # for the test that runs scripts/run from a fresh clone, or for people who keep their own.
    if ! "$SCOREKEEPER_VENV/bin/python" -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then
        echo "SCOREKEEPER_VENV=$SCOREKEEPER_VENV has no Python 3.12 or newer in bin/." >&2
        exit 1
    fi
    export PATH="$SCOREKEEPER_VENV/bin:$PATH"
else
    if [ ! -x .venv/bin/python ] ||
        ! .venv/bin/python -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then
        rm -rf .venv
        python="$(pick_python)"
        echo "Making the virtual environment .venv with $python …"
        "$python" -m venv .venv
    fi

    stamp=.venv/.installed-$(sha256sum pyproject.toml | cut -c1-16)
    if [ ! -f "$stamp" ]; then
        # About a minute of pip with nothing to see: say so first, then every
        # SCOREKEEPER_INSTALL_TICK seconds what it is at (the log's last step), so that a quiet
        # terminal never looks stuck. The ticker stops with the install, or with this shell.
        log=.venv/install.log
        : >"$log"
        echo "Installing Python packages into .venv (first run, or pyproject.toml changed:"
        echo "about a minute; everything it does goes to $log) …"
        started=$SECONDS
        (
            while sleep "${SCOREKEEPER_INSTALL_TICK:-15}" && kill -0 "$$" 2>/dev/null; do
                step=$(grep -E '^(Collecting|Downloading|Building|Installing|Successfully)' "$log" |
                    tail -n 1 | cut -c1-60 || true)
                echo "  … still installing, $((SECONDS - started)) s${step:+: $step}"
            done
        ) &
        ticker=$!
        if ! { .venv/bin/python -m pip install --disable-pip-version-check --upgrade pip &&
            .venv/bin/python -m pip install --disable-pip-version-check -e ".[dev]"; } >"$log" 2>&1; then
            kill "$ticker" 2>/dev/null || true
            cat "$log" >&2
            echo "Installing the Python packages failed (log above)." >&2
            exit 1
        fi
        kill "$ticker" 2>/dev/null || true
        wait "$ticker" 2>/dev/null || true
        echo "Installed the Python packages in $((SECONDS - started)) s."
        rm -f .venv/.installed-*
        touch "$stamp"
    fi
    export PATH="$PWD/.venv/bin:$PATH"
fi

# The translations (docs/DEVELOPMENT.md, Languages): GNU gettext's msgfmt compiles each catalogue
# (scorekeeper/locale/<code>/LC_MESSAGES/django.po, committed) into the .mo file Django reads
# (git-ignored), so that a fresh clone serves every language with no extra step.
if ! command -v msgfmt >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "Installing Debian's gettext for the translations ..."
        apt-get update -qq &&
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gettext >/dev/null
    else
        echo "GNU gettext (msgfmt) is missing and cannot be installed here: pages stay in English." >&2
    fi
fi
stale_catalogue() {
    local po
    for po in scorekeeper/locale/*/LC_MESSAGES/django.po; do
        [ -f "$po" ] || continue
        [ "${po%.po}.mo" -nt "$po" ] || return 0
    done
    return 1
}
if command -v msgfmt >/dev/null 2>&1 && stale_catalogue; then
    # DEBUG only so that settings load without a secret; nothing is served here.
    DEBUG=true python manage.py compilemessages --verbosity 0 \
        --ignore '.venv' --ignore 'node_modules' --ignore 'staticfiles' --ignore '.git'
fi
