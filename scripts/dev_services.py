"""Run a command (the site) with the development identity provider and manager stand-in.

    python scripts/dev_services.py -- reflex run --env prod --backend-only ...

Only when OIDC_ISSUER is empty; refuses a production configuration (SITE_URL https).
See marketing_site/dev_services.py.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from marketing_site.dev_services import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
