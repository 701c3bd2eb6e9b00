// A real OpenID Connect provider on loopback for the SSO end-to-end test (oidc-provider, with
// its development login and consent screens: any login name, any password).
import Provider from "oidc-provider";

const port = Number(process.env.OIDC_PORT ?? 3124);
const studio = process.env.STUDIO_URL ?? "http://127.0.0.1:3123";
const issuer = `http://127.0.0.1:${port}`;

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: "tool-studio",
      client_secret: "tool-studio-test-secret",
      redirect_uris: [`${studio}/api/auth/callback/oidc`],
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_post",
    },
  ],
  async findAccount(_ctx, id) {
    return {
      accountId: id,
      async claims() {
        return { sub: id, email: `${id}@example.com`, email_verified: true, name: id.charAt(0).toUpperCase() + id.slice(1) };
      },
    };
  },
  claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
  features: { devInteractions: { enabled: true } },
  pkce: { required: () => true },
  cookies: { keys: ["e2e-only-cookie-key"] },
});
provider.proxy = false;
provider.listen(port, "127.0.0.1", () => console.log(`test OpenID provider at ${issuer}`));
