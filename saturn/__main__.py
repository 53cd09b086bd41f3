import os
import sys

from .cli import main

code = main()
# Tearing down the lowered program object by object takes seconds on a large tree; every file
# and the database are closed by now (NOTE [frozen-program] in driver.py).
sys.stdout.flush()
sys.stderr.flush()
os._exit(code)
