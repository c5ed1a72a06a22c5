/** Set in the child that answers a hook call for its parent (./isolated.ts); its value is a nonce. */
export const ISOLATED_ENV = "CPILOT_HOOK_ISOLATED";
