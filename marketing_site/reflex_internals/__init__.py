"""Every touch point with Reflex's internals (docs/reflex-upgrade.md lists each with its tripwire test)."""
