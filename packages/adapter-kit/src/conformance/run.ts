import { callAdapter } from './adapter-caller.ts';
import { callbackChecks } from './callback-checks.ts';
import { startCallbackListener } from './callback-listener.ts';
import { malformedChecks, payChecks, payoutChecks, refundChecks, statusChecks } from './method-checks.ts';
import { CONFORMANCE_DEFAULTS, CONFORMANCE_METHODS, type ConformanceOptions, type ConformanceReport } from './options.ts';
import { providerChecks, signatureChecks } from './provider-checks.ts';
import { startProviderStub } from './provider-stub.ts';
import { runId, settingsFor } from './request-bodies.ts';
import { declineReasonCheck, type Suite } from './suite.ts';
import { validatedOptions } from './validate-options.ts';
import { amountChecks, payrailShapeChecks } from './variant-checks.ts';

// The conformance suite: contract-valid requests (and a few invalid ones) sent to a running adapter, each answer
// held to the contract; a callback listener standing in for Payrail and, given providerUrlSetting, a provider stub
// standing in for the provider. Every check is named and reported: pass, fail, or skip (not exercised, or not
// implemented by the adapter: an optional method answered 404).

export async function runConformance(given: ConformanceOptions): Promise<ConformanceReport> {
  const options = validatedOptions(given);
  const timeoutMs = options.timeoutMs ?? CONFORMANCE_DEFAULTS.timeoutMs;
  const host = options.callbackHost ?? CONFORMANCE_DEFAULTS.callbackHost;
  const listener = await startCallbackListener(host, options.callbackPort ?? 0, options.callbackPublicUrl);
  const suite: Suite = {
    options,
    timeoutMs,
    methods: new Set(options.methods ?? CONFORMANCE_METHODS),
    context: {
      settings: settingsFor({
        url: options.url,
        signKey: options.signKey,
        apiKey: options.apiKey ?? CONFORMANCE_DEFAULTS.apiKey,
        sandbox: options.sandbox ?? true,
        timeoutS: Math.ceil(timeoutMs / 1000),
        extra: options.settings ?? {},
      }),
      listener,
      amountMinor: options.amountMinor ?? CONFORMANCE_DEFAULTS.amountMinor,
      currency: options.currency ?? CONFORMANCE_DEFAULTS.currency,
      merchantKey: `sk_conformance_${runId()}`,
    },
    listener,
    checks: [],
    observed: [],
    unsupported: new Set(),
    async call(label, method, body, callOptions = {}) {
      const bodyText = typeof body === 'string' ? body : JSON.stringify(body);
      const result = await callAdapter(options.url, method, bodyText, options.signKey, callOptions.timeoutMs ?? timeoutMs, callOptions);
      suite.observed.push({ label, call: result });
      return result;
    },
  };
  const stub =
    options.providerUrlSetting === undefined
      ? null
      : await startProviderStub(host).catch(async (error: unknown) => {
          await listener.close();
          throw error;
        });
  try {
    const accepted = await payChecks(suite);
    if (suite.methods.has('payout')) await payoutChecks(suite);
    if (suite.methods.has('status')) await statusChecks(suite, accepted);
    if (suite.methods.has('refund')) await refundChecks(suite, accepted);
    await amountChecks(suite);
    await payrailShapeChecks(suite);
    await malformedChecks(suite);
    const reached = await providerChecks(suite, stub);
    await signatureChecks(suite, { stub, reached });
    suite.checks.push(declineReasonCheck(suite.observed));
    await callbackChecks(suite);
  } finally {
    await stub?.close();
    await listener.close();
  }
  return { passed: suite.checks.every((check) => check.outcome !== 'fail'), checks: suite.checks };
}
