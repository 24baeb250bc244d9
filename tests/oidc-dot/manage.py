#!/usr/bin/env python
"""Django's command line for the test provider (DOT_DATA_DIR must be set: see idp/settings.py)."""

import os
import sys

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "idp.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
