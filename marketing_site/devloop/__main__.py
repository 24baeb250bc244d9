"""`python -m marketing_site.devloop`: what `make dev` runs."""

import sys

from marketing_site.devloop.supervisor import main

if __name__ == "__main__":
    sys.exit(main())
