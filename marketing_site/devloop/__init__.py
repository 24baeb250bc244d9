"""The development loop, `make dev`: a saved change in the open tab about a second later.

`supervisor.py` runs the processes and watches the files, `worker.py` compiles the pages a
change feeds (`depmap.py`, `manifest.py`), `mistakes.py` says what went wrong where. What it
takes from Reflex's compiler is in `reflex_internals/dev_compile.py`. docs/development.md
describes the loop.
"""
