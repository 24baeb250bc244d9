"""Tripwires of the touch points with Reflex's internals that no other test covers directly
(docs/reflex-upgrade.md lists every touch point and the test that guards it). Each fails on a
Reflex upgrade that moves what the site relies on, before a build or a visitor notices."""

from __future__ import annotations

import json

import pytest
import reflex as rx
from reflex.app import EventNamespace
from reflex.istate.data import RouterData
from reflex.utils import frontend_skeleton
from reflex_base.constants import CompileVars
from reflex_base.registry import RegistrationContext

from marketing_site.reflex_internals import app_frame, exact_paths
from marketing_site.reflex_internals.client_vars import hook_var
from marketing_site.reflex_internals.event_middleware import HYDRATE_EVENTS
from marketing_site.reflex_internals.router_headers import PEER_ENTRY, peer_and_forwarded


@pytest.fixture
def new_app():
    """A new app, in a fork of the registration context (Reflex allows one app per context)."""
    fork = RegistrationContext.ensure_context().fork()
    token = RegistrationContext._context_var.set(fork)
    try:
        yield rx.App()
    finally:
        RegistrationContext._context_var.reset(token)


def test_the_frame_keys_the_site_changes_are_reflexs(new_app):
    """The overlay and the error boundary stand in a new app's wrappers under the keys the site
    drops and replaces; a missing boundary key raises instead of leaving Reflex's in place."""
    app = new_app
    assert app_frame.CONNECTION_OVERLAY in app.app_wraps
    assert app_frame.ERROR_BOUNDARY in app.app_wraps
    app_frame.drop_connection_overlay(app)
    assert app_frame.CONNECTION_OVERLAY not in app.app_wraps
    boundary = object()
    app_frame.use_error_boundary(app, boundary)
    assert app.app_wraps[app_frame.ERROR_BOUNDARY] is boundary
    del app.app_wraps[app_frame.ERROR_BOUNDARY]
    with pytest.raises(KeyError):
        app_frame.use_error_boundary(app, boundary)


def test_an_event_sees_the_sockets_peer_as_reflex_records_it(new_app):
    """Reflex puts the socket's peer among the connection's headers; the site reads it there
    (the password-reset relay limits per client with it), beside the forwarded chain."""
    namespace = EventNamespace("/_event", new_app)
    scope = {"client": ("203.0.113.9", 50000), "headers": [(b"x-forwarded-for", b"198.51.100.7")]}
    router_data = namespace._build_static_router_data("sid-1", {"asgi.scope": scope})
    assert router_data[rx.constants.RouteVar.HEADERS][PEER_ENTRY] == "203.0.113.9"
    assert peer_and_forwarded(RouterData.from_router_data(router_data)) == ("203.0.113.9", "198.51.100.7")


def test_the_router_config_reflex_writes_is_what_the_site_edits():
    """Reflex's react-router config, as its compiler writes it before the plugins' modify tasks:
    prerendering, it gains the not-found probes; in development it is left as it is."""
    from reflex.config import get_config

    prerendering = frontend_skeleton._update_react_router_config(get_config(), prerender_routes=True)
    edited = exact_paths.prerender_not_found_pages(prerendering)
    assert json.dumps(list(exact_paths.NOT_FOUND_PROBES.values())) in edited
    assert edited.startswith("const config = ") and edited.endswith("export default config;")
    development = frontend_skeleton._update_react_router_config(get_config(), prerender_routes=False)
    assert exact_paths.prerender_not_found_pages(development) == development
    with pytest.raises(ValueError, match="changed shape"):
        exact_paths.prerender_not_found_pages("module.exports = {};")
    tasks: list = []
    exact_paths.ExactPathPlugin().pre_compile(add_modify_task=lambda *task: tasks.append(task))
    assert tasks == [(exact_paths.ROUTER_CONFIG, exact_paths.prerender_not_found_pages)]


def test_a_hook_var_carries_its_hook_and_import():
    var = hook_var("browserLang", "useBrowserLang", "$/public/site_ui.jsx")
    data = var._get_all_var_data()
    assert str(var) == "browserLang"
    assert data is not None and data.hooks == ("const browserLang = useBrowserLang()",)
    assert [(module, [i.tag for i in imports]) for module, imports in data.imports] == [
        ("$/public/site_ui.jsx", ["useBrowserLang"])
    ]


def test_the_hydrate_events_are_named_as_the_middleware_expects():
    assert HYDRATE_EVENTS == (CompileVars.HYDRATE, CompileVars.HYDRATE_AND_LOAD)
    assert all(name and "." not in name for name in HYDRATE_EVENTS)


def test_the_token_manager_the_handover_extends_has_what_it_uses():
    """tab_handover subclasses Reflex's Redis token manager and replaces its factory: the names
    it calls and the record it reads must still be Reflex's (the behaviour itself is
    tests/test_tab_handover.py's, on Redis)."""
    import dataclasses

    from reflex.utils.token_manager import LocalTokenManager, RedisTokenManager, SocketRecord, TokenManager

    from marketing_site.reflex_internals import tab_handover

    for method in ("_get_redis_key", "link_token_to_sid", "close"):
        assert callable(getattr(RedisTokenManager, method, None)), method
    # The maps every token manager keeps (set up by the base class both managers share).
    assert issubclass(RedisTokenManager, TokenManager) and issubclass(LocalTokenManager, TokenManager)
    assert {"token_to_socket", "sid_to_token"} <= set(vars(LocalTokenManager()))
    assert {"instance_id", "sid"} <= {field.name for field in dataclasses.fields(SocketRecord)}
    tab_handover.install()
    assert TokenManager.create.__func__ is tab_handover._create
    # Without Redis, Reflex's own choice stands (a single worker's memory manager).
    assert isinstance(TokenManager.create(), LocalTokenManager)


def test_reflex_takes_the_failure_notice_as_its_backend_exception_handler():
    """Reflex validates the handler by evaluating its annotations in its own module (a handler
    annotated with names it lacks stops the app at start), and the event it returns sets the
    notice's ref to the reference."""
    from reflex_base.registry import RegistrationContext

    handler = app_frame.handler_failure_notice(lambda _exception: "REF12345", "site_error")
    fork = RegistrationContext.ensure_context().fork()
    token = RegistrationContext._context_var.set(fork)
    try:
        app = rx.App(backend_exception_handler=handler)
        app._validate_exception_handlers()
    finally:
        RegistrationContext._context_var.reset(token)
    event = handler(ValueError("x"))
    assert "ref_site_error" in str(event.args) and "REF12345" in str(event.args)
