"""Reflex configuration. Values that vary by deployment come from `marketing_site.settings`."""

import os

import reflex as rx
from reflex.plugins.sitemap import SitemapPlugin

from marketing_site import logs, metrics_storage
from marketing_site.reflex_internals.exact_paths import ExactPathPlugin, respawn_failed_workers
from marketing_site.reflex_internals.frontend_build import SiteFrontendPlugin
from marketing_site.reflex_internals.reflex_logging import route_reflex_output
from marketing_site.settings import SettingsError, get_settings, refuse_unshared_workers

try:
    settings = get_settings()
    # Several workers share their limits through Redis only: refused here, before Granian starts them.
    refuse_unshared_workers(settings, os.environ)
except SettingsError as error:  # the operator reads what to change, not a traceback
    raise SystemExit(str(error)) from None
# Before anything imports prometheus-client (it picks files or memory once): the process group's
# own metrics folder, which the Granian workers started from here inherit (metrics_storage.py).
metrics_storage.prepare_process_group(settings)
# Loaded by `reflex run` before it starts Granian: a killed worker is replaced, not fatal.
respawn_failed_workers()
# The root logger's one handler, before Granian's supervisor logs (marketing_site.py again in
# the workers, after Reflex attached its own console sinks), Reflex's own output through it.
logs.configure()
route_reflex_output()

config = rx.Config(
    app_name="marketing_site",
    telemetry_enabled=False,
    show_built_with_reflex=False,
    # The frontend and the backend share one origin and one port in production.
    api_url=settings.site_origin,
    deploy_url=settings.site_origin,
    cors_allowed_origins=[settings.site_origin],
    db_url=settings.database_url,
    # How long a tab's state outlives its last event, in every state manager (not only Redis).
    redis_token_expiration=settings.state_expiry_seconds,
    # Precompressed at build time; exact_paths serves brotli first, then gzip.
    frontend_compression_formats=["brotli", "gzip"],
    plugins=[ExactPathPlugin(), SiteFrontendPlugin()],
    # Our own sitemap carries hreflang alternates (marketing_site.seo).
    disable_plugins=[SitemapPlugin],
)
