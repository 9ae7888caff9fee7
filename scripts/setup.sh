# Sourced by scripts/demo and scripts/test. Makes .venv (or $NB_AUTOGRAD_VENV) with torch and
# this package. torch first, pinned, so no bare `torch` requirement pulls the CUDA builds.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VENV=${NB_AUTOGRAD_VENV:-$ROOT/.venv}
if [ ! -x "$VENV/bin/python" ]; then
    echo "setup: creating $VENV"
    python3 -m venv "$VENV"
fi
# shellcheck disable=SC1091
. "$VENV/bin/activate"
if ! python -c "import torch" 2>/dev/null; then
    echo "setup: installing torch==2.13.0"
    python -m pip install -q "torch==2.13.0"
fi
echo "setup: installing nb_autograd[${EXTRAS:-demo}]"
python -m pip install -q -e "$ROOT[${EXTRAS:-demo}]"
