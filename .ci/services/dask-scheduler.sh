#!/usr/bin/env bash
# A Dask scheduler on 127.0.0.1 (the port of $RULESPEC_TEST_CLUSTER, set by .ci/run) for the
# tests that run campaigns with --cluster (tests/test_cluster.py): the `dask scheduler`
# command of the Dask installed in .venv (the test extras).
set -euo pipefail
address=${RULESPEC_TEST_CLUSTER:?.ci/run names the scheduler in RULESPEC_TEST_CLUSTER}
PORT=${address##*:}
bin=.venv/bin
answers() { "$bin/python" -c "import socket; socket.create_connection(('127.0.0.1', $PORT), 1)" \
              2>/dev/null; }
answers && exit 0
"$bin/dask" scheduler --host 127.0.0.1 --port "$PORT" --no-dashboard \
  >"$CI_SERVICE_STATE/dask-scheduler.log" 2>&1 &
echo $! >"$CI_SERVICE_STATE/dask-scheduler.pid"
for _ in $(seq 600); do        # up to a minute, in tenths of a second
  answers && exit 0
  sleep 0.1
done
echo "the Dask scheduler did not answer on 127.0.0.1:$PORT within a minute" >&2
cat "$CI_SERVICE_STATE/dask-scheduler.log" >&2
exit 1
