"""UserInfo / ID token claims: names and email from the Django user, roles from its groups."""

import os

from oauth2_provider.oauth2_validators import OAuth2Validator


class NereoValidator(OAuth2Validator):
    # `roles` is not a standard claim: DOT drops any claim absent from this map, so it is
    # released with the `openid` scope (ID token and UserInfo).
    oidc_claim_scope = {**OAuth2Validator.oidc_claim_scope, "roles": "openid"}  # noqa: RUF012 - DOT's own attribute

    def get_additional_claims(self):
        return {
            "name": lambda request: request.user.get_full_name(),
            "given_name": lambda request: request.user.first_name,
            "family_name": lambda request: request.user.last_name,
            "email": lambda request: request.user.email,
            "email_verified": lambda request: bool(request.user.email),
            "preferred_username": lambda request: request.user.username,
            "roles": lambda request: sorted(request.user.groups.values_list("name", flat=True)),
        }


if os.environ.get("DOT_SILENT_FIX") == "1":
    # Workaround (not DOT's default): oauthlib asks these two for prompt=none and DOT 3.4.1
    # does not implement them (NotImplementedError -> HTTP 500). The view only runs them for a
    # user logged in at DOT (an anonymous prompt=none gets login_required before), and a
    # silent answer may not show the consent page: allowed only for a skip_authorization client.
    def _silent_login(self, request):
        return True

    def _silent_authorization(self, request):
        return bool(getattr(request.client, "skip_authorization", False))

    NereoValidator.validate_silent_login = _silent_login
    NereoValidator.validate_silent_authorization = _silent_authorization
