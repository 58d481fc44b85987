#!/usr/bin/env bash
# The load test (see loadtest/run.py): PostgreSQL + gunicorn on 127.0.0.1, 50 viewers and
# 5 scorekeepers for 120 s, then a check that every confirmed deal is stored exactly once.
# Installs what it needs first (scripts/lib.sh: prepare_load), as scripts/start does.
#   loadtest/run.sh                         # the default run
#   loadtest/run.sh --duration 30 --viewers 20
#   LOAD_DATABASE_URL=postgres://u:p@127.0.0.1:5432/efuda_load loadtest/run.sh
source "$(dirname "$0")/../scripts/lib.sh"
prepare_load
exec "$PY" -m loadtest.run "$@"
