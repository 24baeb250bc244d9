// A certified OpenID Provider for the tests: panva's `oidc-provider` 9.x (installed by the
// Makefile under .tools/oidc-provider), on loopback, at its defaults except where a real
// deployment must say something (clients, accounts, claims per scope).
//
// At its defaults it behaves like a conformant customer provider, unlike oidc-provider-mock:
// profile and email claims only at UserInfo (the ID token carries sub and the protocol claims),
// offline_access (so a refresh token) only with prompt=consent, post-logout URLs compared
// exactly, refresh tokens not rotated for a confidential client. Its development login form
// accepts any login; the login picks the account from PROVIDER_ACCOUNTS.
//
// Environment (all JSON or numbers, set by tests/certified.py):
//   PROVIDER_PORT            port on 127.0.0.1 (the issuer is http://127.0.0.1:PORT)
//   PROVIDER_CLIENTS         the registered clients (oidc-provider client metadata)
//   PROVIDER_ACCOUNTS        {"<login>": {claims...}}; an unknown login gets only `sub`
//   PROVIDER_ACCESS_TTL      access token lifetime in seconds (default: the provider's, 1 h)
//   PROVIDER_NO_EXPIRES_IN   "1": token responses omit expires_in (RFC 6749 only recommends it)
//   PROVIDER_ROTATE          "1": every refresh rotates the refresh token (reuse is refused)
//   PROVIDER_RESOURCE        a resource indicator (RFC 8707) this provider serves tokens for
//
// Every request is logged as one line "<METHOD> <path>" on stdout, so a test can count them.

// The package lives under .tools/oidc-provider (OIDC_PROVIDER_MODULE: its entry file), not next
// to this file, so it is imported by path.
const { default: Provider } = await import(process.env.OIDC_PROVIDER_MODULE);

const port = Number(process.env.PROVIDER_PORT);
const issuer = `http://127.0.0.1:${port}`;
const clients = JSON.parse(process.env.PROVIDER_CLIENTS || '[]');
const accounts = JSON.parse(process.env.PROVIDER_ACCOUNTS || '{}');
const accessTtl = Number(process.env.PROVIDER_ACCESS_TTL || 0);
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
if (accessTtl) configuration.ttl = { AccessToken: accessTtl };
if (process.env.PROVIDER_ROTATE === '1') configuration.rotateRefreshToken = () => true;

const provider = new Provider(issuer, configuration);

provider.use(async (ctx, next) => {
  process.stdout.write(`${ctx.method} ${ctx.path}\n`);
  await next();
  if (process.env.PROVIDER_NO_EXPIRES_IN === '1' && ctx.path === '/token' && ctx.body && typeof ctx.body === 'object') {
    delete ctx.body.expires_in;
  }
});

provider.listen(port, '127.0.0.1', () => {
  process.stdout.write(`listening ${issuer}\n`);
});
