import { type Answer, callRaw, type RawCallOptions } from "./support/call";

/**
 * The untyped call of suites that do not speak the contract's types yet (test/lti): the same
 * request as test/support/call.ts's `call`, with a body of any shape. New tests import
 * test/support/call.ts.
 */
export { BASE, defaultKey, expectProblem, seedApiKey } from "./support/call";

export const call = (path: string, options: RawCallOptions = {}): Promise<Answer<any, any>> => callRaw(path, options);
