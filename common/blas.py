"""numpy's BLAS on one thread per process.

A search multiplies small matrices: a question's vector by the few thousand phrase vectors
of its candidate sections (rules.search.meaning). OpenBLAS, the BLAS of numpy's wheels,
spreads even these over every core, and its threads then spin while they wait for more
work, on the cores the meaning models' ONNX Runtime threads and other requests need. At
10,060 sections (bench/rules_search.py, a 2-core machine) one thread takes the median
search from 14.5-15.4 ms to 12.2-12.7 ms, and the CPU time per search from 29-31 ms to
16 ms. A web or Celery process answers many requests at once: one thread each is the
usual setting for it.
"""

from __future__ import annotations


def one_blas_thread() -> None:
    """Limit the BLAS libraries loaded in this process (numpy's, imported here) to one
    thread, whatever OPENBLAS_NUM_THREADS said when they were loaded."""
    import numpy  # noqa: F401  (threadpoolctl limits the libraries already loaded)
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=1, user_api="blas")
