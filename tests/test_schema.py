"""Schemathesis: requests generated from the API's OpenAPI schema against the real site.

Every answer must be documented (status, content type, body schema) and none may be a 5xx.
The site of this module has its own database and lifted rate limits (the generated
requests would otherwise use up the per-IP budget of the session's site).
"""

from __future__ import annotations

import httpx2
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis.generation import GenerationMode
from servers import SiteServer, free_port

from marketing_site.api.mail import OPENAPI

schema = schemathesis.openapi.from_dict(OPENAPI)
CHECKS = [
    schemathesis.checks.not_a_server_error,
    schemathesis.checks.status_code_conformance,
    schemathesis.checks.content_type_conformance,
    schemathesis.checks.response_schema_conformance,
    schemathesis.checks.response_headers_conformance,
]


@pytest.fixture(scope="module")
def schema_site(workdir):
    server = SiteServer(free_port(), workdir, RATE_LIMIT_PER_IP="100000", RATE_LIMIT_PER_EMAIL="100000")
    server.migrate()
    server.start()
    yield server
    server.stop()


def test_the_served_schema_is_the_one_tested(schema_site):
    assert httpx2.get(schema_site.url + "/api/v1/openapi.json").json() == OPENAPI


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_api_conforms_to_its_schema(mode, schema_site):
    # The examples are generated here, when the test runs: schemathesis's own pytest
    # parametrization drew them while pytest collected (about 100 s before any test started).
    operations = [result.ok() for result in schema.get_all_operations()]
    tested = 0
    for operation in operations:
        # 40 examples per operation and mode, run on SQLite and again on PostgreSQL: the
        # suite's time budget (docs/testing.md).
        @given(case=operation.as_strategy(generation_mode=mode))
        @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        def conforms(case):
            case.call_and_validate(base_url=schema_site.url, checks=CHECKS, timeout=15)

        try:
            conforms()
        except Unsatisfiable:
            # An operation without parameters or body (GET /api/v1/health) has no invalid
            # request to draw.
            assert mode == GenerationMode.NEGATIVE, operation.label
            continue
        tested += 1
    # Every operation with valid requests, the lead API with invalid ones too.
    assert tested == (len(operations) if mode == GenerationMode.POSITIVE else 1), tested
