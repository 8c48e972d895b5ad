#!/usr/bin/env bash
# Two Dask workers for the scheduler of dask-scheduler.sh (run before this one: name order),
# one thread each (rulespec's tasks are CPU-bound Python), started in the repository so
# that they import the rulespec of this checkout. Returns once the scheduler has both.
set -euo pipefail
address=${RULESPEC_TEST_CLUSTER:?.ci/run names the scheduler in RULESPEC_TEST_CLUSTER}
WORKERS=2
bin=.venv/bin
has_workers() {
  "$bin/python" - "$address" "$1" <<'PY' 2>/dev/null
import sys
from distributed import Client
with Client(sys.argv[1], timeout="5s") as c:
    c.wait_for_workers(int(sys.argv[2]), timeout=1)
PY
}
has_workers "$WORKERS" && exit 0
for i in $(seq "$WORKERS"); do
  "$bin/dask" worker "$address" --nthreads 1 --no-dashboard --name "ci-$i" \
    >"$CI_SERVICE_STATE/dask-worker-$i.log" 2>&1 &
  echo $! >"$CI_SERVICE_STATE/dask-worker-$i.pid"
done
for _ in $(seq 60); do         # up to a minute
  has_workers "$WORKERS" && exit 0
  sleep 1
done
echo "the Dask scheduler at $address did not see $WORKERS workers within a minute" >&2
cat "$CI_SERVICE_STATE"/dask-worker-*.log >&2
exit 1
