"""`python -m saturn` and the `saturn` command."""
import gc
import os
import sys


def run():
    # Importing Saturn and its libraries makes tens of thousands of objects that live as long as
    # the process: the collector is off until they are made, then they are frozen, so no later
    # pass walks them and forked workers share their pages (as NOTE [frozen-program] in
    # app/driver.py).
    gc.disable()
    from .app.cli import main
    gc.freeze()
    gc.enable()
    code = main()
    # Tearing down the lowered program object by object takes seconds on a large tree; every
    # file and the database are closed by now (NOTE [frozen-program] in app/driver.py).
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    run()
