/** Its value is a nonce. */
export const ISOLATED_ENV = "CPILOT_HOOK_ISOLATED";
