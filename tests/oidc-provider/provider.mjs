// A certified OpenID Provider for the tests: panva's `oidc-provider` 9.x (installed here from
// package-lock.json by `make test`), on loopback, at its defaults except where a real
// deployment must say something (clients, accounts, claims per scope).
//
// At its defaults it behaves like a conformant customer provider, unlike oidc-provider-mock:
// profile and email claims only at UserInfo (the ID token carries sub and the protocol claims),
// offline_access (so a refresh token) only with prompt=consent, post-logout URLs compared
// exactly, refresh tokens not rotated for a confidential client. One feature is on that the
// defaults leave off: Back-Channel Logout, for the clients that register a URI for it. Its development login form
// accepts any login; the login picks the account from PROVIDER_ACCOUNTS.
//
// Environment (all JSON or numbers, set by tests/servers.py CertifiedProvider):
//   PROVIDER_PORT            port on 127.0.0.1 (the issuer is http://127.0.0.1:PORT)
//   PROVIDER_CLIENTS         the registered clients (oidc-provider client metadata)
//   PROVIDER_ACCOUNTS        {"<login>": {claims...}}; an unknown login gets only `sub`
//   PROVIDER_CLIENT_OPTIONS  {"<client_id>": {...}} what a test varies per client:
//                              access_ttl     access token lifetime in seconds (default 1 h)
//                              no_expires_in  token responses omit expires_in (RFC 6749 only
//                                             recommends it)
//                              rotate         every refresh rotates the refresh token (the
//                                             provider then refuses the old one and revokes
//                                             the grant when it comes back)
//                              refresh_delay_ms  a successful refresh is answered this much
//                                             later, after the line "refreshed <client_id>"
//                                             (the old refresh token is already spent then)
//   PROVIDER_RESOURCE        a resource indicator (RFC 8707) this provider serves tokens for
//
// Every request is logged as one line "<METHOD> <path>" on stdout, so a test can count them.

import Provider from 'oidc-provider';

const port = Number(process.env.PROVIDER_PORT);
const issuer = `http://127.0.0.1:${port}`;
const clients = JSON.parse(process.env.PROVIDER_CLIENTS || '[]');
const accounts = JSON.parse(process.env.PROVIDER_ACCOUNTS || '{}');
const options = JSON.parse(process.env.PROVIDER_CLIENT_OPTIONS || '{}');
const optionsOf = (client) => (client && options[client.clientId]) || {};
const resource = process.env.PROVIDER_RESOURCE || '';

const configuration = {
  clients,
  // The claims each scope releases (a real deployment always declares them); `roles` is a
  // custom, non-namespaced claim under the openid scope, as Keycloak and Entra ID send it.
  claims: {
    openid: ['sub', 'roles'],
    email: ['email', 'email_verified'],
    profile: ['name', 'given_name', 'family_name', 'picture', 'updated_at', 'locale'],
  },
  async findAccount(_ctx, sub) {
    const known = accounts[sub] || {};
    return {
      accountId: sub,
      async claims() {
        return { ...known, sub };
      },
    };
  },
  features: {
    // Off by default; a provider that offers it tells the site when its session ends there.
    backchannelLogout: { enabled: true },
    resourceIndicators: {
      enabled: true,
      async getResourceServerInfo(_ctx, indicator) {
        if (resource && indicator === resource) {
          return { scope: 'api', audience: resource, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'RS256' } } };
        }
        throw new Provider.errors.InvalidTarget();
      },
    },
  },
};
configuration.ttl = {
  AccessToken(_ctx, token, client) {
    return token.resourceServer?.accessTokenTTL || optionsOf(client).access_ttl || 60 * 60;
  },
};
// The default rotates a confidential client's refresh token only near its expiry.
configuration.rotateRefreshToken = (ctx) => Boolean(optionsOf(ctx.oidc.client).rotate)
  || ctx.oidc.entities.RefreshToken.ttlPercentagePassed() >= 70;

// Its outgoing requests (the back-channel logout calls) refuse loopback addresses, a guard
// against SSRF; every party of these tests lives on loopback, so the guard is left out here.
configuration.fetch = (url, options) => {
  const { dispatcher, ...rest } = options;
  return globalThis.fetch(url, rest);
};

const provider = new Provider(issuer, configuration);
provider.on('backchannel.error', (_ctx, error, client) => {
  process.stdout.write(`backchannel.error ${client.clientId}: ${error.message}\n`);
});

provider.use(async (ctx, next) => {
  process.stdout.write(`${ctx.method} ${ctx.path}\n`);
  await next();
  if (ctx.path === '/token' && ctx.body && typeof ctx.body === 'object' && optionsOf(ctx.oidc?.client).no_expires_in) {
    delete ctx.body.expires_in;
  }
  const delay = optionsOf(ctx.oidc?.client).refresh_delay_ms;
  if (delay && ctx.path === '/token' && ctx.status === 200 && ctx.oidc?.params?.grant_type === 'refresh_token') {
    process.stdout.write(`refreshed ${ctx.oidc.client.clientId}\n`);
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
});

provider.listen(port, '127.0.0.1', () => {
  process.stdout.write(`listening ${issuer}\n`);
});
