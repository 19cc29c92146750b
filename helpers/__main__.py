"""`python -m helpers`: see `helpers.cli`."""

import os
import sys

from helpers.cli import main

if __name__ == "__main__":
    try:
        code = main()
        sys.stdout.flush()
    except BrokenPipeError:  # `... | head`: the reader left; say nothing more (Python's advice)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = 0
    sys.exit(code)
