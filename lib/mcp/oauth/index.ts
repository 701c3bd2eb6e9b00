/** OAuth for remote MCP servers (the MCP authorization spec, driven by the SDK's `auth()`): sealed storage, the provider, the sign-in flow. */
export { SecretBox } from "./crypto";
export { OAuthStore, FLOW_TTL_MS, stateHash, type OAuthTarget, type StoredFlow } from "./store";
export { StudioOAuthProvider, CLIENT_NAME, redirectUrlFor, type StudioOAuthOptions } from "./provider";
export {
  OAuthFlowError,
  connectionProvider,
  finishSignIn,
  oauthTarget,
  signOut,
  startSignIn,
  type CallbackParams,
  type HeldTokens,
  type OAuthDeps,
  type OAuthServer,
} from "./signin";
export { SIGN_IN_FAILED, SIGN_IN_REQUIRED, isSignInNeeded, oauthFailure } from "./sign-in-needed";
export { OAuthFetchGuard, OAuthUrlRefusedError, oauthUrlRefusal } from "./fetch-guard";
